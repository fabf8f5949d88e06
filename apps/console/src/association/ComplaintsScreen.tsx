import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComplaintCategory, ComplaintStatus, type Complaint } from '@corridor/contracts/complaints';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { useCompanies } from '../ui/lookups';
import { StatusPill } from '../ui/StatusPill';
import { complaintEndpoints } from './association';

const LIMIT = 25;

/** Complaints filed against companies, drivers, trucks and journey flags, by state and category. */
export default function ComplaintsScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const [status, setStatus] = useState<ComplaintStatus | ''>('');
  const [category, setCategory] = useState<ComplaintCategory | ''>('');
  const [keyword, setKeyword] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useApiQuery(complaintEndpoints.list, { query: { limit: LIMIT, offset, status: status ? [status] : undefined, category: category ? [category] : undefined, keyword: keyword.trim() || undefined } });
  const columns: Column<Complaint>[] = [
    { key: 'title', header: t('complaints.complaint'), cell: (c) => <Link to={`/complaints/${c.id}`}>{c.title}</Link> },
    { key: 'against', header: t('complaints.against'), cell: (c) => `${companies.name(c.companyId)} · ${t(`complaints.subject.${c.subjectType}`)} ${c.subjectType === 'company' ? '' : c.subjectRef}` },
    { key: 'category', header: t('complaints.category'), cell: (c) => t(`complaints.categories.${c.category}`) },
    { key: 'status', header: t('shipments.status'), cell: (c) => <StatusPill value={c.status} /> },
    { key: 'filed', header: t('complaints.filed'), cell: (c) => f.dateTime(c.createdAt) },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('complaints.title')}</h1>
        <Link className="btn" to="/complaints/new">
          {t('complaints.file')}
        </Link>
      </div>
      <div className="filters">
        <label className="field">
          <span>{t('shipments.status')}</span>
          <select value={status} onChange={(e) => (setOffset(0), setStatus(e.target.value as ComplaintStatus | ''))}>
            <option value="">{t('common.all')}</option>
            {ComplaintStatus.options.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('complaints.category')}</span>
          <select value={category} onChange={(e) => (setOffset(0), setCategory(e.target.value as ComplaintCategory | ''))}>
            <option value="">{t('common.all')}</option>
            {ComplaintCategory.options.map((c) => (
              <option key={c} value={c}>
                {t(`complaints.categories.${c}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('common.search')}</span>
          <input type="search" value={keyword} onChange={(e) => (setOffset(0), setKeyword(e.target.value))} />
        </label>
      </div>
      <DataTable
        caption={t('complaints.title')}
        columns={columns}
        rows={q.data?.items}
        rowKey={(c) => c.id}
        loading={q.isPending}
        error={q.error}
        retry={() => void q.refetch()}
        empty={status || category || keyword ? { title: t('complaints.noMatch'), hint: t('common.clearFilters') } : { title: t('complaints.empty'), hint: t('complaints.emptyHint') }}
      />
      <Pager offset={offset} limit={LIMIT} total={q.data?.total} count={q.data?.items.length ?? 0} onChange={setOffset} />
    </div>
  );
}
