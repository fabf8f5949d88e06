import { useMemo, useState } from 'react';
import { Link, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { LngLatBoundsLike } from 'maplibre-gl';
import { useApiMutation, useApiQuery } from '../api/hooks';
import { useFormat } from '../i18n/format';
import { useNewFlags } from '../live/queries';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { CorridorMap } from '../ui/map/CorridorMap';
import { FitBounds } from '../ui/map/MapView';
import { FlagMarks } from '../ui/map/layers/FlagMarks';
import { PlannedRoute } from '../ui/map/layers/PlannedRoute';
import { TrackLine } from '../ui/map/layers/TrackLine';
import { NoteDialog } from '../ui/NoteDialog';
import { ErrorState, Loading } from '../ui/states';
import { StatusPill } from '../ui/StatusPill';
import { useCompanies, useDeviceNames } from '../ui/lookups';
import { FlagTimeline } from './FlagTimeline';
import { flagFeatures, journeyBounds, plannedFeatures, trackFeatures } from './journey-geometry';
import { journeyEndpoints } from './journeys';

/** One journey: the planned corridor against the actual track, its flags on a timeline, review and cancel. */
export default function JourneyDetailScreen() {
  const { t } = useTranslation();
  const f = useFormat();
  const user = useUser();
  const id = Number(useParams().id);
  const q = useApiQuery(journeyEndpoints.get, { params: { id }, query: { trackLimit: 10_000 } }, { refetchInterval: 15_000 });
  const cancel = useApiMutation(journeyEndpoints.cancel, { invalidates: ['journeys.'] });
  const companies = useCompanies();
  const deviceName = useDeviceNames();
  const { data: fresh } = useNewFlags();
  const [selectedFlag, setSelectedFlag] = useState<number | null>(null);
  const [cancelling, setCancelling] = useState(false);
  const d = q.data;
  const planned = useMemo(() => (d ? plannedFeatures(d) : null), [d]);
  const track = useMemo(() => (d ? trackFeatures(d) : null), [d]);
  const flags = useMemo(() => (d ? flagFeatures(d, selectedFlag) : null), [d, selectedFlag]);
  const routeBounds = useMemo(() => (d ? journeyBounds(d) : null), [d?.journey.id, d?.track.length]); // eslint-disable-line react-hooks/exhaustive-deps
  const flag = d?.flags.find((fl) => fl.id === selectedFlag);
  const fit: LngLatBoundsLike | null = flag
    ? [
        [flag.longitude - 0.05, flag.latitude - 0.05],
        [flag.longitude + 0.05, flag.latitude + 0.05],
      ]
    : routeBounds;
  const freshFlags = new Set(fresh.filter((e) => Number(e.journeyId) === id).map((e) => Number(e.attributes.flagId)));

  if (q.isPending) return <Loading />;
  if (q.error || !d) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  const j = d.journey;
  const canWrite = may(user, journeyEndpoints.cancel);
  return (
    <div className="screen">
      <p className="small">
        <Link to={j.flagged ? '/journeys?tab=flagged' : '/journeys'}>← {t('journeys.title')}</Link>
      </p>
      <div className="screen-head">
        <h1>
          {t('journeys.number', { id: j.id })} · {j.routeName}
        </h1>
        <StatusPill value={j.state} />
        <Link className="btn" to={`/journeys/${j.id}/replay${selectedFlag ? `?flag=${selectedFlag}` : ''}`}>
          {selectedFlag ? t('replay.fromFlag') : t('replay.openJourney')}
        </Link>
        {canWrite && (j.state === 'planned' || j.state === 'active') && (
          <button type="button" className="btn btn-danger" onClick={() => setCancelling(true)}>
            {t('journey.cancel')}
          </button>
        )}
      </div>
      <div className="two-col">
        <div className="stack">
          <div className="map-box">
            <CorridorMap label={t('journey.mapLabel', { flags: d.flags.length, fixes: d.track.length })}>
              <PlannedRoute data={planned} />
              <TrackLine data={track} />
              <FlagMarks data={flags} onSelect={(fid) => setSelectedFlag(fid)} />
              <FitBounds bounds={fit} />
            </CorridorMap>
          </div>
          <p className="small muted">
            {t('journey.legend')}
            {d.trackTruncated && ` ${t('journey.trackTruncated')}`}
          </p>
          <dl className="facts card">
            <dt>{t('journeys.truck')}</dt>
            <dd>
              {deviceName(j.deviceId)}
              {j.truckPlate && ` · ${j.truckPlate}`}
            </dd>
            <dt>{t('journeys.company')}</dt>
            <dd>{companies.name(j.companyId)}</dd>
            <dt>{t('journey.countries')}</dt>
            <dd>{j.countries.join(', ') || '—'}</dd>
            <dt>{t('journey.planned')}</dt>
            <dd>
              {f.dateTime(j.plannedDeparture)} → {f.dateTime(j.plannedArrival)}
            </dd>
            <dt>{t('journey.actual')}</dt>
            <dd>
              {f.dateTime(j.actualDeparture)} → {f.dateTime(j.actualArrival)}
            </dd>
            <dt>{t('journey.routeLength')}</dt>
            <dd>
              {f.distance(d.route.lengthM)} · {t('journey.width', { width: f.distance(d.route.widthM) })}
            </dd>
            {j.shipmentRef && (
              <>
                <dt>{t('journey.shipment')}</dt>
                <dd>{j.shipmentRef}</dd>
              </>
            )}
            {j.cargoRef && (
              <>
                <dt>{t('journey.cargo')}</dt>
                <dd>{j.cargoRef}</dd>
              </>
            )}
            {j.cancelReason && (
              <>
                <dt>{t('journey.cancelReason')}</dt>
                <dd>{j.cancelReason}</dd>
              </>
            )}
          </dl>
        </div>
        <section className="card" aria-labelledby="flags-title">
          <h2 id="flags-title">{t('journey.flags')}</h2>
          <FlagTimeline
            flags={d.flags}
            canReview={canWrite}
            selected={selectedFlag}
            onSelect={(fid) => setSelectedFlag((cur) => (cur === fid ? null : fid))}
            fresh={freshFlags}
          />
        </section>
      </div>
      <NoteDialog
        open={cancelling}
        title={t('journey.cancelTitle')}
        noteLabel={t('journey.cancelReason')}
        confirm={t('journey.cancel')}
        danger
        onClose={() => setCancelling(false)}
        onConfirm={(reason) => cancel.mutateAsync({ params: { id: j.id }, body: reason ? { reason } : {} })}
      />
    </div>
  );
}
