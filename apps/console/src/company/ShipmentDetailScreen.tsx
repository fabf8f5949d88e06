import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { call } from '../api/client';
import { useApiQuery } from '../api/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useFormat } from '../i18n/format';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { DocumentsPanel } from '../ui/documents/DocumentsPanel';
import { useCompanies } from '../ui/lookups';
import { CargoRef } from '../ui/references/EntityRefs';
import { ErrorState, Loading } from '../ui/states';
import { StatusHistory } from '../ui/StatusHistory';
import { StatusPill } from '../ui/StatusPill';
import { ProgressPanel } from './ProgressPanel';
import { ShipmentMoves } from './ShipmentMoves';
import { shipmentEndpoints } from './shipments';

const OPEN_FOR_PROGRESS = ['booked', 'in_transit', 'at_border', 'cleared', 'on_hold'];

/** One shipment: its details, the moves allowed now, track details, documents and status history. */
export default function ShipmentDetailScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const client = useQueryClient();
  const shipmentId = Number(useParams().id);
  const q = useApiQuery(shipmentEndpoints.get, { params: { shipmentId } });
  const companies = useCompanies();
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const s = q.data;
  const back = user.companyId === null ? '/oversight/shipments' : '/shipments';
  const upload = async (form: FormData) => {
    await call(shipmentEndpoints.attach, { params: { shipmentId }, body: form as never }); // multipart: upload and attach in one step
    await client.invalidateQueries({ queryKey: [shipmentEndpoints.get.id] });
  };
  return (
    <div className="screen">
      <p className="small">
        <Link to={back}>← {t('shipments.title')}</Link>
      </p>
      <div className="screen-head">
        <h1>
          {t('shipments.shipment')} {s.reference}
        </h1>
        <StatusPill value={s.status} />
      </div>
      <section className="card stack" aria-label={t('shipments.moves')}>
        <ShipmentMoves shipmentId={shipmentId} />
      </section>
      <div className="two-col mt">
        <div className="stack">
          <dl className="facts card">
            <dt>{t('journeys.company')}</dt>
            <dd>{companies.name(s.companyId)}</dd>
            <dt>{t('shipments.route')}</dt>
            <dd>
              {s.origin.place} ({s.origin.country}) → {s.destination.place} ({s.destination.country})
              {s.corridor && ` · ${t(`corridor.${s.corridor}`)}`}
            </dd>
            <dt>{t('shipments.borders')}</dt>
            <dd>{s.borderCrossings.join(', ') || '—'}</dd>
            <dt>{t('shipments.truck')}</dt>
            <dd>
              {s.truckPlate ?? '—'}
              {s.trailerPlate && ` + ${s.trailerPlate}`}
            </dd>
            <dt>{t('shipments.driver')}</dt>
            <dd>{s.driver ? `${s.driver.name}${s.driver.phone ? ` · ${s.driver.phone}` : ''}` : '—'}</dd>
            <dt>{t('shipments.containers')}</dt>
            <dd className="mono">{s.containerNumbers.join(', ') || '—'}</dd>
            <dt>{t('shipments.planned')}</dt>
            <dd>
              {f.dateTime(s.plannedDeparture)} → {f.dateTime(s.plannedArrival)}
            </dd>
            <dt>{t('shipments.actual')}</dt>
            <dd>
              {f.dateTime(s.actualDeparture)} → {f.dateTime(s.actualArrival)}
            </dd>
            <dt>{t('shipments.cargo')}</dt>
            <dd>
              {s.cargoIds.length ? (
                <ul className="ref-list">
                  {s.cargoIds.map((id) => (
                    <li key={id}>
                      <CargoRef cargoId={id} />
                    </li>
                  ))}
                </ul>
              ) : (
                '—'
              )}
            </dd>
            {s.journeyId && (
              <>
                <dt>{t('journeys.journey')}</dt>
                <dd>
                  <Link to={`/journeys/${s.journeyId}`}>{t('journeys.number', { id: s.journeyId })}</Link>
                </dd>
              </>
            )}
            {s.notes && (
              <>
                <dt>{t('shipments.note')}</dt>
                <dd>{s.notes}</dd>
              </>
            )}
          </dl>
          <ProgressPanel
            shipmentId={shipmentId}
            progress={s.progress}
            canAdd={may(user, shipmentEndpoints.addProgress) && OPEN_FOR_PROGRESS.includes(s.status)}
          />
        </div>
        <div className="stack">
          <DocumentsPanel
            documents={s.documents}
            onUpload={may(user, shipmentEndpoints.attach) ? upload : undefined}
            kinds={['bill_of_lading', 'cmr', 'commercial_invoice', 'packing_list', 'delivery_note', 'photo', 'other']}
          />
          <StatusHistory id="history-title" history={s.statusHistory} />
        </div>
      </div>
    </div>
  );
}
