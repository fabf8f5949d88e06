import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Certificate } from '@corridor/contracts/certificates';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { certificateEndpoints } from '../company/certificates';
import { CertificateCard } from '../company/CertificateCard';
import { useFormat } from '../i18n/format';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { useCompanies } from '../ui/lookups';
import { NoteDialog } from '../ui/NoteDialog';

const LIMIT = 25;

/**
 * The officer's queue: certificates paid for and submitted, oldest first to be fair; each opens
 * beside the list with its documents, and is approved or rejected with a reason.
 */
export default function ApprovalQueueScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const [params, setParams] = useSearchParams();
  const [offset, setOffset] = useState(0);
  const [rejecting, setRejecting] = useState<Certificate | null>(null);
  const q = useApiQuery(certificateEndpoints.list, { query: { status: ['submitted'], limit: LIMIT, offset } }, { refetchInterval: 30_000 });
  const approve = useApiMutation(certificateEndpoints.approve, { invalidates: ['certificates.'] });
  const reject = useApiMutation(certificateEndpoints.reject, { invalidates: ['certificates.'] });
  const openId = Number(params.get('open')) || null;
  const open = q.data?.items.find((c) => c.id === openId);
  const select = (id: number | null) => setParams(id ? { open: String(id) } : {}, { replace: true });
  const columns: Column<Certificate>[] = [
    {
      key: 'number',
      header: t('certificates.number'),
      cell: (c) => (
        <button type="button" className="link-button" onClick={() => select(c.id)} aria-pressed={c.id === openId}>
          {c.number}
        </button>
      ),
    },
    { key: 'company', header: t('journeys.company'), cell: (c) => companies.name(c.companyId) },
    { key: 'idf', header: t('cargo.idfNumber'), cell: (c) => c.cargo.idfNumber },
    { key: 'value', header: t('cargo.invoiceValue'), numeric: true, cell: (c) => (c.cargo.invoiceValue !== null && c.cargo.currency ? f.money(c.cargo.invoiceValue, c.cargo.currency) : '—') },
    { key: 'submitted', header: t('approvals.submitted'), cell: (c) => f.dateTime(c.generatedAt ?? c.updatedAt) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (c) => (
        <span className="toolbar">
          <button type="button" className="btn btn-small btn-primary" disabled={approve.isPending} onClick={() => void approve.mutateAsync({ params: { id: c.id }, body: {} }).catch(() => undefined)}>
            {t('approvals.approve')}
          </button>
          <button type="button" className="btn btn-small btn-danger" onClick={() => setRejecting(c)}>
            {t('approvals.reject')}
          </button>
        </span>
      ),
    },
  ];
  const sorted = [...(q.data?.items ?? [])].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('approvals.title')}</h1>
        {q.data && <span className="muted">{t('approvals.waiting', { count: q.data.total })}</span>}
      </div>
      {(approve.error || reject.error) && (
        <p role="alert" className="form-error">
          {(approve.error ?? reject.error)?.message}
        </p>
      )}
      <div className="two-col">
        <div>
          <DataTable
            caption={t('approvals.title')}
            columns={columns}
            rows={q.data ? sorted : undefined}
            rowKey={(c) => c.id}
            loading={q.isPending}
            error={q.error}
            retry={() => void q.refetch()}
            empty={{ title: t('approvals.empty'), hint: t('approvals.emptyHint') }}
          />
          <Pager offset={offset} limit={LIMIT} total={q.data?.total} count={q.data?.items.length ?? 0} onChange={setOffset} />
        </div>
        {open && <CertificateCard certificate={open} onClose={() => select(null)} />}
      </div>
      <NoteDialog
        open={rejecting !== null}
        title={rejecting ? t('approvals.rejectTitle', { number: rejecting.number }) : ''}
        noteLabel={t('approvals.reason')}
        noteRequired
        confirm={t('approvals.reject')}
        danger
        onClose={() => setRejecting(null)}
        onConfirm={(reason) => reject.mutateAsync({ params: { id: rejecting!.id }, body: { reason } })}
      />
    </div>
  );
}
