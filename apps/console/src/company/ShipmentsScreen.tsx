import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShipmentStatus, type Shipment } from '@corridor/contracts/shipments';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DataTable, Pager, type Column } from '../ui/DataTable';
import { StatusPill } from '../ui/StatusPill';
import { shipmentEndpoints } from './shipments';

const LIMIT = 25;

/** The company's shipments: filter by state and reference, open one, create one. */
export default function ShipmentsScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const [status, setStatus] = useState<ShipmentStatus | ''>('');
  const [reference, setReference] = useState('');
  const [offset, setOffset] = useState(0);
  const q = useApiQuery(shipmentEndpoints.listCompany, { query: { limit: LIMIT, offset, status: status ? [status] : undefined, reference: reference.trim() || undefined } });
  const columns: Column<Shipment>[] = [
    { key: 'ref', header: t('shipments.reference'), cell: (s) => <Link to={`/shipments/${s.id}`}>{s.reference}</Link> },
    { key: 'route', header: t('shipments.route'), cell: (s) => `${s.origin.place} → ${s.destination.place}` },
    { key: 'truck', header: t('shipments.truck'), cell: (s) => s.truckPlate ?? '—' },
    { key: 'status', header: t('shipments.status'), cell: (s) => <StatusPill value={s.status} /> },
    { key: 'departure', header: t('shipments.plannedDeparture'), cell: (s) => f.date(s.plannedDeparture) },
    { key: 'arrival', header: t('shipments.plannedArrival'), cell: (s) => f.date(s.plannedArrival) },
  ];
  return (
    <div className="screen">
      <div className="screen-head">
        <h1>{t('shipments.title')}</h1>
        {may(user, shipmentEndpoints.create) && (
          <Link className="btn btn-primary" to="/shipments/new">
            {t('shipments.create')}
          </Link>
        )}
      </div>
      <div className="filters">
        <label className="field">
          <span>{t('shipments.status')}</span>
          <select value={status} onChange={(e) => (setOffset(0), setStatus(e.target.value as ShipmentStatus | ''))}>
            <option value="">{t('common.all')}</option>
            {ShipmentStatus.options.map((s) => (
              <option key={s} value={s}>
                {t(`status.${s}`)}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>{t('shipments.reference')}</span>
          <input type="search" value={reference} onChange={(e) => (setOffset(0), setReference(e.target.value))} />
        </label>
      </div>
      <DataTable
        caption={t('shipments.title')}
        columns={columns}
        rows={q.data?.items}
        rowKey={(s) => s.id}
        loading={q.isPending}
        error={q.error}
        retry={() => void q.refetch()}
        empty={status || reference ? { title: t('shipments.noMatch'), hint: t('common.clearFilters') } : { title: t('shipments.empty'), hint: t('shipments.emptyHint') }}
      />
      <Pager offset={offset} limit={LIMIT} total={q.data?.total} count={q.data?.items.length ?? 0} onChange={setOffset} />
    </div>
  );
}
