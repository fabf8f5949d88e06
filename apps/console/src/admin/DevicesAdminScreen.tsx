import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { devicesEndpoints, type Device } from '@corridor/contracts/devices';
import { endpoint } from '../api/endpoint';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import type { Column } from '../ui/DataTable';
import { SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { Field, FormError, useFieldErrors } from '../ui/forms';
import { useCompanies } from '../ui/lookups';

const list = endpoint(devicesEndpoints, 'devices.list');
const create = endpoint(devicesEndpoints, 'devices.create');
const remove = endpoint(devicesEndpoints, 'devices.delete');
const LIMIT = 50;

/** The device registry: every tracker with its company, model and state; register a new one or remove one. */
export default function DevicesAdminScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const companies = useCompanies();
  const devices = usePagedFilters({ keyword: '' }, LIMIT);
  const [adding, setAdding] = useState(false);
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
        <button type="button" className="btn btn-small btn-danger" onClick={() => window.confirm(t('devices.confirmDelete', { name: d.name })) && del.mutate({ params: { id: d.id } })}>
          {t('users.delete')}
        </button>
      ),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('devices.adminTitle')}</h1>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          {t('devices.register')}
        </button>
      </div>
      {adding && <DeviceForm onDone={() => setAdding(false)} />}
      <div className="filters mt">
        <SearchFilter value={devices.filters.keyword} placeholder={t('devices.searchHint')} onChange={(v) => devices.set('keyword', v)} />
      </div>
      <FormError error={del.error} />
      <PagedTable caption={t('devices.adminTitle')} columns={columns} query={q} list={devices} rowKey={(d) => d.id} empty={{ title: t('map.noTrucks'), hint: t('devices.registerHint') }} />
    </div>
  );
}

function DeviceForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const companies = useCompanies();
  const add = useApiMutation(create, { invalidates: ['devices.'] });
  const [v, setV] = useState({ name: '', uniqueId: '', companyId: '', model: '', phone: '' });
  const errors = useFieldErrors(add.error);
  async function submit(e: FormEvent) {
    e.preventDefault();
    const ok = await add
      .mutateAsync({ body: { name: v.name.trim(), uniqueId: v.uniqueId.trim(), companyId: v.companyId ? Number(v.companyId) : null, model: v.model.trim() || null, phone: v.phone.trim() || null, category: 'truck' } })
      .then(() => true, () => false);
    if (ok) onDone();
  }
  return (
    <form className="card" onSubmit={submit} aria-label={t('devices.register')}>
      <h2>{t('devices.register')}</h2>
      <div className="form-grid">
        <Field label={t('devices.name')} name="name" error={errors.name}>
          <input required value={v.name} onChange={(e) => setV({ ...v, name: e.target.value })} />
        </Field>
        <Field label={t('map.uniqueId')} name="uniqueId" error={errors.uniqueId} hint={t('devices.uniqueIdHint')}>
          <input required value={v.uniqueId} onChange={(e) => setV({ ...v, uniqueId: e.target.value })} />
        </Field>
        <Field label={t('journeys.company')} name="companyId" error={errors.companyId}>
          <select value={v.companyId} onChange={(e) => setV({ ...v, companyId: e.target.value })}>
            <option value="">{t('common.none')}</option>
            {(companies.data?.items ?? []).map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </Field>
        <Field label={t('devices.model')} name="model" error={errors.model}>
          <input value={v.model} onChange={(e) => setV({ ...v, model: e.target.value })} placeholder="Teltonika FMB920" />
        </Field>
        <Field label={t('devices.phone')} name="phone" error={errors.phone}>
          <input value={v.phone} onChange={(e) => setV({ ...v, phone: e.target.value })} />
        </Field>
      </div>
      <FormError error={add.error} />
      <div className="form-actions">
        <button type="button" className="btn" onClick={onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="btn btn-primary" disabled={add.isPending}>
          {t('common.save')}
        </button>
      </div>
    </form>
  );
}
