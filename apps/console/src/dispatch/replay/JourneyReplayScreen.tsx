import { useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { JourneyDetail } from '@corridor/contracts/journeys';
import { useApiQuery } from '../../api/hooks';
import { useDeviceNames } from '../../ui/lookups';
import { ErrorState, Loading } from '../../ui/states';
import { plannedFeatures } from '../journey-geometry';
import { journeyEndpoints } from '../journeys';
import { ReplayView } from './ReplayView';
import { useReplayData } from './useReplayData';

/** The period a journey covers: from its departure (actual, else planned) to its arrival, cancellation or now. */
function journeyPeriod(d: JourneyDetail, now = Date.now()): { from: string; to: string } {
  const j = d.journey;
  const from = j.actualDeparture ?? j.plannedDeparture ?? j.createdAt;
  const end = j.actualArrival ?? j.cancelledAt ?? new Date(now).toISOString();
  return { from, to: Date.parse(end) > Date.parse(from) ? end : new Date(Date.parse(from) + 60_000).toISOString() };
}

/** A journey played back over its planned corridor, with its flags (and their review) on the timeline; ?flag=<id> starts at that flag. */
export default function JourneyReplayScreen() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const [params] = useSearchParams();
  const q = useApiQuery(journeyEndpoints.get, { params: { id }, query: { trackLimit: 0 } });
  if (q.isPending) return <Loading />;
  if (q.error || !q.data) return <ErrorState error={q.error} retry={() => void q.refetch()} />;
  return <Replay detail={q.data} flagId={Number(params.get('flag')) || null} title={t('replay.journeyTitle', { id })} />;
}

function Replay({ detail, flagId, title }: { detail: JourneyDetail; flagId: number | null; title: string }) {
  const { t } = useTranslation();
  const deviceName = useDeviceNames();
  // the period is fixed when the screen opens (an active journey's "now" does not move under the player)
  const [{ from, to }] = useState(() => journeyPeriod(detail));
  const data = useReplayData(detail.journey.deviceId, from, to, detail.flags);
  const planned = useMemo(() => plannedFeatures(detail), [detail]);
  const flag = detail.flags.find((f) => f.id === flagId);
  return (
    <div className="screen">
      <p className="small">
        <Link to={`/journeys/${detail.journey.id}`}>← {t('journeys.number', { id: detail.journey.id })}</Link>
      </p>
      <div className="screen-head">
        <h1>
          {title} · {deviceName(detail.journey.deviceId)}
        </h1>
      </div>
      {data.isPending ? (
        <Loading label={t('replay.loading')} />
      ) : data.error || !data.track ? (
        <ErrorState error={data.error} retry={data.refetch} />
      ) : (
        <>
          {data.truncated && <p className="form-note">{t('replay.truncated')}</p>}
          {data.partial && <p className="form-note">{t('replay.partial')}</p>}
          <ReplayView
            track={data.track}
            marks={data.marks}
            deviceId={detail.journey.deviceId}
            from={from}
            to={to}
            planned={planned}
            startAt={flag ? Date.parse(flag.openedAt) : undefined}
          />
        </>
      )}
    </div>
  );
}
