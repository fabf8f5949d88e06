import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { useFormat } from '../i18n/format';
import { DataTable, type Column } from '../ui/DataTable';
import { useCompanies } from '../ui/lookups';
import { filterFleet, TRUCK_STATES, type FleetRow, type TruckState } from './truck-features';
import { useFleet } from './useFleet';

/** Every tracker the user may see, live: search by name or id, filter by state, open on the map. */
export default function DevicesScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const fleet = useFleet();
  const companies = useCompanies();
  const [search, setSearch] = useState('');
  const [state, setState] = useState<TruckState | ''>('');
  const rows = useMemo(() => filterFleet(fleet.rows, search, new Set(state ? [state] : [])), [fleet.rows, search, state]);
  const columns: Column<FleetRow>[] = [
    { key: 'name', header: t('devices.name'), cell: (r) => r.device.name },
    { key: 'uniqueId', header: t('map.uniqueId'), cell: (r) => <span className="mono">{r.device.uniqueId}</span> },
    {
      key: 'state',
      header: t('map.state'),
      cell: (r) => (
        <span className="row">
          <span className={`dot dot-${r.state}`} aria-hidden="true" /> {t(`truckState.${r.state}`)}
        </span>
      ),
    },
    {
      key: 'speed',
      header: t('map.speed'),
      numeric: true,
      // a silent or offline truck's last speed is not its speed now (as on the truck's card)
      cell: (r) => (r.state === 'moving' || r.state === 'stopped' ? f.speedKnots(r.position?.speed) : '—'),
    },
    {
      key: 'lastFix',
      header: t('map.lastFix'),
      cell: (r) => <span title={f.dateTime(r.position?.fixTime)}>{f.relative(r.position?.fixTime)}</span>,
    },
    { key: 'company', header: t('journeys.company'), cell: (r) => companies.name(r.device.companyId) },
    { key: 'model', header: t('devices.model'), cell: (r) => r.device.model ?? '—' },
    {
      key: 'map',
      header: <span className="sr-only">{t('devices.onMap')}</span>,
      cell: (r) => (r.position ? <Link to={`/map?device=${r.device.id}`}>{t('devices.onMap')}</Link> : null),
    },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('devices.title')}</h1>
      </div>
      <div className="filters">
        <label className="field">
          <span>{t('common.search')}</span>
          <input type="search" value={search} onChange={(e) => setSearch(e.target.value)} placeholder={t('devices.searchHint')} />
        </label>
        <label className="field">
          <span>{t('map.state')}</span>
          <select value={state} onChange={(e) => setState(e.target.value as TruckState | '')}>
            <option value="">{t('common.all')}</option>
            {TRUCK_STATES.map((s) => (
              <option key={s} value={s}>
                {t(`truckState.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <p className="muted small" aria-live="polite">
          {t('map.showing', { shown: rows.length, count: fleet.rows.length })}
        </p>
      </div>
      <DataTable
        caption={t('devices.title')}
        columns={columns}
        rows={rows}
        rowKey={(r) => r.device.id}
        loading={fleet.isPending}
        error={fleet.error}
        retry={fleet.refetch}
        empty={
          fleet.rows.length
            ? { title: t('devices.noMatch'), hint: t('devices.noMatchHint') }
            : { title: t('map.noTrucks'), hint: t('map.noTrucksHint') }
        }
      />
    </div>
  );
}
