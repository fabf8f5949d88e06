import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { InventoryStatus, inventoriesEndpoints, type InventoryItem } from '@corridor/contracts/inventories';
import { resourceEndpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { usePagedFilters } from '../ui/list/usePagedFilters';
import { useCompanies, useDeviceNames } from '../ui/lookups';
import { StatusPill } from '../ui/StatusPill';
import { InventoryActionForm, type InventoryActionKind } from './InventoryActionForm';

const list = resourceEndpoint<{ method: 'get'; request: { query: unknown } }>()(inventoriesEndpoints, 'inventories.list');
const LIMIT = 50;

type Action = { kind: InventoryActionKind; item: InventoryItem } | null;

/** Tracking units in stock and with companies: assign to a company, transfer authority, revoke. */
export default function InventoriesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const deviceName = useDeviceNames();
  const inventory = usePagedFilters({ status: '' as InventoryStatus | '' }, LIMIT);
  const [action, setAction] = useState<Action>(null);
  const q = useApiQuery(list, {
    query: { limit: inventory.limit, offset: inventory.offset, status: inventory.filters.status || undefined },
  });
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
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('inventories.title')}</h1>
      </div>
      {action && (
        <InventoryActionForm
          key={`${action.kind}-${action.item.id}`}
          kind={action.kind}
          item={action.item}
          device={deviceName(action.item.deviceId)}
          onDone={() => setAction(null)}
        />
      )}
      <div className="filters mt">
        <ChoiceFilter
          label={t('shipments.status')}
          value={inventory.filters.status}
          options={InventoryStatus.options}
          optionLabel={(o) => t(`status.${o}`)}
          onChange={(v) => inventory.set('status', v)}
        />
      </div>
      <PagedTable
        caption={t('inventories.title')}
        columns={columns}
        query={{ data: q.data ? items : undefined, isPending: q.isPending, error: q.error, refetch: q.refetch }}
        list={inventory}
        rowKey={(i) => i.id}
        empty={{ title: t('inventories.empty'), hint: t('inventories.emptyHint') }}
      />
    </div>
  );
}
