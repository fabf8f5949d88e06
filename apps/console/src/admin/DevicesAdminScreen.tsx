import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { devicesEndpoints, type Device } from '@corridor/contracts/devices';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { RowActions } from '../ui/list/RowActions';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { FormError } from '../ui/forms';
import { useCompanies } from '../ui/lookups';
import { DeviceForm } from './DeviceForm';

const list = endpoint(devicesEndpoints, 'devices.list');
const remove = endpoint(devicesEndpoints, 'devices.delete');
const LIMIT = 50;

/** The device registry: every tracker with its company, model and state; register a new one, edit one (its group, speed limit and readings) or remove one. */
export default function DevicesAdminScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const devices = usePagedFilters({ keyword: '' }, LIMIT);
  // the form open: a new device (null) or one being edited
  const [editing, setEditing] = useState<Device | null | undefined>(undefined);
  const q = useApiQuery(list, { query: { limit: devices.limit, offset: devices.offset, keyword: searchText(devices.filters.keyword) } });
  const del = useApiMutation(remove, { invalidates: ['devices.'] });
  const columns: Column<Device>[] = [
    { key: 'name', header: t('devices.name'), cell: (d) => d.name },
    { key: 'uniqueId', header: t('map.uniqueId'), cell: (d) => <span className="mono">{d.uniqueId}</span> },
    { key: 'company', header: t('journeys.company'), cell: (d) => companies.name(d.companyId) },
    { key: 'model', header: t('devices.model'), cell: (d) => d.model ?? '—' },
    { key: 'status', header: t('shipments.status'), cell: (d) => t(`deviceStatus.${d.status}`) },
    { key: 'last', header: t('devices.lastUpdate'), cell: (d) => f.dateTime(d.lastUpdate) },
    {
      key: 'actions',
      header: <span className="sr-only">{t('common.actions')}</span>,
      cell: (d) => (
        <RowActions
          editLabel={t('deviceEdit.editTitle', { name: d.name })}
          onEdit={() => setEditing(d)}
          deleteLabel={t('resources.deleteOne', { name: d.name })}
          confirm={t('devices.confirmDelete', { name: d.name })}
          onDelete={() => del.mutate({ params: { id: d.id } })}
        />
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('devices.adminTitle')}</h1>
        <button type="button" className="btn btn-primary" onClick={() => setEditing(null)}>
          {t('devices.register')}
        </button>
      </div>
      {editing !== undefined && <DeviceForm key={editing?.id ?? 'new'} device={editing} onDone={() => setEditing(undefined)} />}
      <div className="filters mt">
        <SearchFilter value={devices.filters.keyword} placeholder={t('devices.searchHint')} onChange={(v) => devices.set('keyword', v)} />
      </div>
      <FormError error={del.error} />
      <PagedTable
        caption={t('devices.adminTitle')}
        columns={columns}
        query={q}
        list={devices}
        rowKey={(d) => d.id}
        empty={{ title: t('map.noTrucks'), hint: t('devices.registerHint') }}
      />
    </div>
  );
}
