import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InventoryStatus, inventoriesEndpoints, type InventoryItem } from '@corridor/contracts/inventories';
import { endpoint, resourceEndpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { usePagedFilters } from '../ui/list/usePagedFilters';
import { FormError } from '../ui/forms';
import { useCompanies, useDeviceNames } from '../ui/lookups';
import { NoteDialog } from '../ui/NoteDialog';
import { StatusPill } from '../ui/StatusPill';

const list = resourceEndpoint<{ method: 'get'; request: { query: unknown } }>()(inventoriesEndpoints, 'inventories.list');
const assign = endpoint(inventoriesEndpoints, 'inventories.assign');
const revoke = endpoint(inventoriesEndpoints, 'inventories.revoke');
const transfer = endpoint(inventoriesEndpoints, 'inventories.transfer');
const LIMIT = 50;

type Action = { kind: 'assign' | 'transfer' | 'revoke'; item: InventoryItem } | null;

/** Tracking units in stock and with companies: assign to a company, transfer authority, revoke. */
export default function InventoriesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const deviceName = useDeviceNames();
  const inventory = usePagedFilters({ status: '' as InventoryStatus | '' }, LIMIT);
  const [action, setAction] = useState<Action>(null);
  const [companyId, setCompanyId] = useState('');
  const q = useApiQuery(list, { query: { limit: inventory.limit, offset: inventory.offset, status: inventory.filters.status || undefined } });
  const opts = { invalidates: ['inventories.', 'devices.'] };
  const doAssign = useApiMutation(assign, opts);
  const doRevoke = useApiMutation(revoke, opts);
  const doTransfer = useApiMutation(transfer, opts);
  const items = (q.data ?? []) as InventoryItem[];
  const columns: Column<InventoryItem>[] = [
    { key: 'device', header: t('reports.device'), cell: (i) => deviceName(i.deviceId) },
    { key: 'serial', header: t('inventories.serial'), cell: (i) => <span className="mono">{i.serialNumber ?? '—'}</span> },
    { key: 'status', header: t('shipments.status'), cell: (i) => <StatusPill value={i.status} /> },
    { key: 'company', header: t('journeys.company'), cell: (i) => companies.name(i.companyId) },
    { key: 'since', header: t('inventories.since'), cell: (i) => f.dateTime(i.assignedAt) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (i) => (
        <span className="toolbar">
          {i.status !== 'assigned' && (
            <button type="button" className="btn btn-small" onClick={() => setAction({ kind: 'assign', item: i })}>
              {t('inventories.assign')}
            </button>
          )}
          {i.status === 'assigned' && (
            <>
              <button type="button" className="btn btn-small" onClick={() => setAction({ kind: 'transfer', item: i })}>
                {t('inventories.transfer')}
              </button>
              <button type="button" className="btn btn-small btn-danger" onClick={() => setAction({ kind: 'revoke', item: i })}>
                {t('inventories.revoke')}
              </button>
            </>
          )}
        </span>
      ),
    },
  ];
  const run = async (reason: string) => {
    if (!action) return;
    const id = action.item.id;
    if (action.kind === 'revoke') await doRevoke.mutateAsync({ params: { id }, body: { reason } });
    else if (action.kind === 'transfer') await doTransfer.mutateAsync({ params: { id }, body: { toCompanyId: Number(companyId), reason } });
    else await doAssign.mutateAsync({ params: { id }, body: { companyId: Number(companyId) } });
  };
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('inventories.title')}</h1>
      </div>
      <div className="filters">
        <ChoiceFilter label={t('shipments.status')} value={inventory.filters.status} options={InventoryStatus.options} optionLabel={(o) => t(`status.${o}`)} onChange={(v) => inventory.set('status', v)} />
        {action && action.kind !== 'revoke' && (
          <label className="field">
            <span>{t('inventories.toCompany')}</span>
            <select required value={companyId} onChange={(e) => setCompanyId(e.target.value)}>
              <option value="">{t('common.choose')}</option>
              {(companies.data?.items ?? []).map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <FormError error={doAssign.error ?? doRevoke.error ?? doTransfer.error} />
      <PagedTable
        caption={t('inventories.title')}
        columns={columns}
        query={{ data: q.data ? items : undefined, isPending: q.isPending, error: q.error, refetch: q.refetch }}
        list={inventory}
        rowKey={(i) => i.id}
        empty={{ title: t('inventories.empty'), hint: t('inventories.emptyHint') }}
      />
      <NoteDialog
        open={action !== null && (action.kind === 'revoke' || companyId !== '')}
        title={action ? t(`inventories.${action.kind}Title`, { device: deviceName(action.item.deviceId) }) : ''}
        noteLabel={t('shipments.reason')}
        noteRequired={action?.kind !== 'assign'}
        confirm={action ? t(`inventories.${action.kind}`) : ''}
        danger={action?.kind === 'revoke'}
        onClose={() => (setAction(null), setCompanyId(''))}
        onConfirm={run}
      />
    </div>
  );
}
