import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ComplaintCategory, ComplaintStatus, type Complaint } from '@corridor/contracts/complaints';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter, SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { oneOf, searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { useCompanies } from '../ui/lookups';
import { StatusPill } from '../ui/StatusPill';
import { complaintEndpoints } from './association';
import { useNoticeWord } from '../i18n/notice-words';

/** Complaints filed against companies, drivers, trucks and journey flags, by state and category. */
export default function ComplaintsScreen() {
  const { t } = useTranslation();
  const word = useNoticeWord();
  const f = useFormat();
  const companies = useCompanies();
  const list = usePagedFilters({ status: '' as ComplaintStatus | '', category: '' as ComplaintCategory | '', keyword: '' });
  const { status, category, keyword } = list.filters;
  const q = useApiQuery(complaintEndpoints.list, {
    query: { limit: list.limit, offset: list.offset, status: oneOf(status), category: oneOf(category), keyword: searchText(keyword) },
  });
  const columns: Column<Complaint>[] = [
    { key: 'title', header: t('complaints.complaint'), cell: (c) => <Link to={`/complaints/${c.id}`}>{c.title}</Link> },
    {
      key: 'against',
      header: t('complaints.against'),
      cell: (c) =>
        `${companies.name(c.companyId)} · ${t(`complaints.subject.${c.subjectType}`)} ${c.subjectType === 'company' ? '' : c.subjectRef}`,
    },
    { key: 'category', header: t('complaints.category'), cell: (c) => word('categories', c.category) },
    {
      key: 'status',
      header: t('shipments.status'),
      cell: (c) => <StatusPill value={c.status} label={word('complaintStatus', c.status)} />,
    },
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
        <ChoiceFilter
          label={t('shipments.status')}
          value={status}
          options={ComplaintStatus.options}
          optionLabel={(o) => word('complaintStatus', o)}
          onChange={(v) => list.set('status', v)}
        />
        <ChoiceFilter
          label={t('complaints.category')}
          value={category}
          options={ComplaintCategory.options}
          optionLabel={(o) => word('categories', o)}
          onChange={(v) => list.set('category', v)}
        />
        <SearchFilter value={keyword} onChange={(v) => list.set('keyword', v)} />
      </div>
      <PagedTable
        caption={t('complaints.title')}
        columns={columns}
        query={q}
        list={list}
        rowKey={(c) => c.id}
        noMatch={t('complaints.noMatch')}
        empty={{ title: t('complaints.empty'), hint: t('complaints.emptyHint') }}
      />
    </div>
  );
}
