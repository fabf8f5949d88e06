import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { ShipmentStatus, type Shipment } from '@corridor/contracts/shipments';
import { useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import type { Column } from '../ui/DataTable';
import { ChoiceFilter, SearchFilter } from '../ui/list/Filters';
import { PagedTable } from '../ui/list/PagedTable';
import { oneOf, searchText, usePagedFilters } from '../ui/list/usePagedFilters';
import { StatusPill } from '../ui/StatusPill';
import { shipmentEndpoints } from './shipments';

/** The company's shipments: filter by state and reference, open one, create one. */
export default function ShipmentsScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const list = usePagedFilters({ status: '' as ShipmentStatus | '', reference: '' });
  const { status, reference } = list.filters;
  const q = useApiQuery(shipmentEndpoints.listCompany, {
    query: { limit: list.limit, offset: list.offset, status: oneOf(status), reference: searchText(reference) },
  });
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
        <ChoiceFilter
          label={t('shipments.status')}
          value={status}
          options={ShipmentStatus.options}
          optionLabel={(o) => t(`status.${o}`)}
          onChange={(v) => list.set('status', v)}
        />
        <SearchFilter label={t('shipments.reference')} value={reference} onChange={(v) => list.set('reference', v)} />
      </div>
      <PagedTable
        caption={t('shipments.title')}
        columns={columns}
        query={q}
        list={list}
        rowKey={(s) => s.id}
        noMatch={t('shipments.noMatch')}
        empty={{ title: t('shipments.empty'), hint: t('shipments.emptyHint') }}
      />
    </div>
  );
}
