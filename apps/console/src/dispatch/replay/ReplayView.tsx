import { memo, useCallback, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { FeatureCollection } from 'geojson';
import { boundsOf } from '../../ui/map/bounds';
import { CorridorMap } from '../../ui/map/CorridorMap';
import { FitBounds } from '../../ui/map/MapView';
import { PlannedRoute } from '../../ui/map/layers/PlannedRoute';
import { ReplayCursor } from '../../ui/map/layers/ReplayCursor';
import { ReplayMarks } from '../../ui/map/layers/ReplayMarks';
import { TrackLine } from '../../ui/map/layers/TrackLine';
import { Empty } from '../../ui/states';
import { ExportLinks } from './ExportLinks';
import { FixPanel } from './FixPanel';
import { KeepInView } from './KeepInView';
import { MarkList } from './MarkList';
import { cursorAt, markFeatures, nearestFix, trackLine, type ReplayMark, type ReplayTrack } from './replay-model';
import { ReplayControls } from './ReplayControls';
import { useReplayClock } from './useReplayClock';
import './replay.css';

export interface ReplayViewProps {
  track: ReplayTrack;
  marks: ReplayMark[];
  /** What the export links download: the device and the period. */
  deviceId: number;
  from: string;
  to: string;
  /** A journey's planned corridor, drawn under the track. */
  planned?: FeatureCollection | null;
  /** Where the cursor starts (ms), e.g. a flag opened from the journey screen. */
  startAt?: number;
}

/**
 * A truck's track over a period, played back: the track and its marks (stops, events, flags) on
 * the map, a time slider with play, pause and speed, the fix under the cursor, the marks as a list
 * to jump to, and the period's export. The track and the marks are drawn once; only the cursor
 * moves each frame.
 */
export function ReplayView({ track, marks, deviceId, from, to, planned, startAt }: ReplayViewProps) {
  const { t } = useTranslation();
  const start = track.index.start;
  const end = track.index.end;
  const clock = useReplayClock(start, end);
  const line = useMemo(() => trackLine(track), [track]);
  const bounds = useMemo(() => boundsOf(line.features[0]?.geometry.coordinates ?? []), [line]);
  const markFc = useMemo(() => markFeatures(marks), [marks]);
  const cursor = cursorAt(track, clock.time);
  const cursorFc = useMemo<FeatureCollection | null>(
    () =>
      cursor
        ? {
            type: 'FeatureCollection',
            features: [{ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [cursor.lon, cursor.lat] } }],
          }
        : null,
    [cursor?.lon, cursor?.lat], // eslint-disable-line react-hooks/exhaustive-deps -- the point, not its object
  );
  const { seek } = clock;
  const pickOnTrack = useCallback((p: [number, number]) => seek(track.index.times[nearestFix(track, p)]!), [seek, track]);
  useEffect(() => {
    if (startAt !== undefined) seek(startAt);
  }, [startAt, seek]);

  if (track.fixes.length === 0) return <Empty title={t('replay.noFixes')} hint={t('replay.noFixesHint')} />;
  const fix = cursor?.fix ?? track.fixes[0]!;
  return (
    <div className="replay">
      <div className="replay-map map-box">
        <CorridorMap label={t('replay.mapLabel', { count: track.fixes.length })}>
          <StillLayers line={line} planned={planned ?? null} marks={markFc} bounds={bounds} onPick={seek} onTrackPick={pickOnTrack} />
          <ReplayCursor data={cursorFc} />
          {cursor && <KeepInView at={[cursor.lon, cursor.lat]} active={clock.playing} />}
        </CorridorMap>
      </div>
      <ReplayControls clock={clock} start={start} end={end} marks={marks} />
      <div className="replay-side">
        <FixPanel fix={fix} />
        <MarkList marks={marks} now={clock.time} onPick={seek} />
        <ExportLinks deviceId={deviceId} from={from} to={to} />
      </div>
    </div>
  );
}

/** The map's layers that do not change while playing: drawn once per replay, not re-rendered each frame. */
const StillLayers = memo(function StillLayers({
  line,
  planned,
  marks,
  bounds,
  onPick,
  onTrackPick,
}: {
  line: FeatureCollection;
  planned: FeatureCollection | null;
  marks: FeatureCollection;
  bounds: ReturnType<typeof boundsOf>;
  onPick(time: number): void;
  onTrackPick(p: [number, number]): void;
}) {
  return (
    <>
      {planned && <PlannedRoute data={planned} />}
      <TrackLine data={line} onPick={onTrackPick} />
      <ReplayMarks data={marks} onPick={onPick} />
      <FitBounds bounds={bounds} maxZoom={14} />
    </>
  );
});
