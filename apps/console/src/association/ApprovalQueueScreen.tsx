import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CertificateRejectInput, type Certificate } from '@corridor/contracts/certificates';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { certificateEndpoints } from '../company/certificates';
import { CertificateCard } from '../company/CertificateCard';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { PagedTable } from '../ui/list/PagedTable';
import { usePagedFilters } from '../ui/list/usePagedFilters';
import { useCompanies } from '../ui/lookups';
import { NoteDialog } from '../ui/NoteDialog';
import { FormError } from '../ui/forms';

/**
 * The officer's queue: certificates paid for and submitted, oldest first to be fair; each opens
 * beside the list with its documents, and is approved or rejected with a reason.
 */
export default function ApprovalQueueScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const [params, setParams] = useSearchParams();
  const list = usePagedFilters({});
  const [rejecting, setRejecting] = useState<Certificate | null>(null);
  const q = useApiQuery(
    certificateEndpoints.list,
    { query: { status: ['submitted'], limit: list.limit, offset: list.offset } },
    { refetchInterval: 30_000 },
  );
  const approve = useApiMutation(certificateEndpoints.approve, { invalidates: ['certificates.'] });
  const reject = useApiMutation(certificateEndpoints.reject, { invalidates: ['certificates.'] });
  const openId = Number(params.get('open')) || null;
  const queued = q.data?.items.find((c) => c.id === openId);
  // a certificate named elsewhere (oversight, a document's owner) that is no longer waiting opens too
  const other = useApiQuery(
    certificateEndpoints.get,
    { params: { id: openId ?? 0 } },
    { enabled: openId !== null && q.data !== undefined && !queued },
  );
  const open = queued ?? (openId !== null && other.data?.id === openId ? other.data : undefined);
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
    {
      key: 'value',
      header: t('cargo.invoiceValue'),
      numeric: true,
      cell: (c) => (c.cargo.invoiceValue !== null && c.cargo.currency ? f.money(c.cargo.invoiceValue, c.cargo.currency) : '—'),
    },
    { key: 'submitted', header: t('approvals.submitted'), cell: (c) => f.dateTime(c.generatedAt ?? c.updatedAt) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (c) => (
        <span className="toolbar">
          <button
            type="button"
            className="btn btn-small btn-primary"
            disabled={approve.isPending}
            onClick={() => void approve.mutateAsync({ params: { id: c.id }, body: {} }).catch(() => undefined)}
          >
            {t('approvals.approve')}
          </button>
          <button type="button" className="btn btn-small btn-danger" onClick={() => setRejecting(c)}>
            {t('approvals.reject')}
          </button>
        </span>
      ),
    },
  ];
  // beside an open certificate (whose card shows its IDF) the table drops the IDF column, so that
  // Approve and Reject stay in view at 1,366 px instead of scrolling out of the table's box
  const shown = open ? columns.filter((c) => c.key !== 'idf') : columns;
  const sorted = [...(q.data?.items ?? [])].sort((a, b) => Date.parse(a.updatedAt) - Date.parse(b.updatedAt));
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('approvals.title')}</h1>
        {q.data && <span className="muted">{t('approvals.waiting', { count: q.data.total })}</span>}
      </div>
      {/* a refused rejection is said in its dialog, once; an approval has no dialog */}
      <FormError error={approve.error} />
      <div className={open ? 'two-col' : undefined}>
        <div>
          <PagedTable
            caption={t('approvals.title')}
            columns={shown}
            query={{ ...q, data: q.data ? { items: sorted, total: q.data.total } : undefined }}
            list={list}
            rowKey={(c) => c.id}
            empty={{ title: t('approvals.empty'), hint: t('approvals.emptyHint') }}
          />
        </div>
        {open && <CertificateCard certificate={open} onClose={() => select(null)} />}
      </div>
      <NoteDialog
        open={rejecting !== null}
        title={rejecting ? t('approvals.rejectTitle', { number: rejecting.number }) : ''}
        noteLabel={t('approvals.reason')}
        noteRequired
        note={CertificateRejectInput.shape.reason}
        confirm={t('approvals.reject')}
        danger
        onClose={() => setRejecting(null)}
        onConfirm={(reason) => reject.mutateAsync({ params: { id: rejecting!.id }, body: { reason } })}
      />
    </div>
  );
}
