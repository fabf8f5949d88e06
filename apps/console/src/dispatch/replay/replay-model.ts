import type { Feature, FeatureCollection, LineString, Point } from 'geojson';
import type { Event, EventType } from '@corridor/contracts/events';
import type { JourneyFlag } from '@corridor/contracts/journeys';
import type { Position } from '@corridor/contracts/positions';
import type { ReportStop } from '@corridor/contracts/reports';
import type { MarkKind } from '../../ui/map/layers/ReplayMarks';
import { TimeIndex } from './time-index';

/** A replay's fixes, oldest first, with their time index. */
export interface ReplayTrack {
  fixes: Position[];
  index: TimeIndex;
}

/** Something that happened during the replayed period: on the timeline and on the map. */
export interface ReplayMark {
  id: string;
  kind: MarkKind;
  /** ms */
  time: number;
  /** ms; a stop's end */
  end?: number;
  lon: number;
  lat: number;
  /** What it was: an event type, a flag type, or 'stop'. */
  what: string;
  /** For an alarm: its names (sos, powerCut…); for a flag: its review state. */
  detail?: string;
}

/** Over a silence longer than this the cursor waits at the last fix instead of gliding to the next. */
const MAX_GLIDE_MS = 5 * 60_000;

export function replayTrack(positions: readonly Position[]): ReplayTrack {
  // state records (a heartbeat kept at the last known place) say nothing of where the truck went
  const fixes = positions.filter((p) => p.attributes?.outdated !== true);
  const sorted = fixes.every((p, i) => i === 0 || p.fixTime >= fixes[i - 1]!.fixTime)
    ? fixes
    : [...fixes].sort((a, b) => Date.parse(a.fixTime) - Date.parse(b.fixTime));
  return { fixes: sorted, index: new TimeIndex(sorted.map((p) => Date.parse(p.fixTime))) };
}

/** Events that say where the truck was and what happened; the rest (status and motion changes) the stops and the track already tell. */
const NOT_MARKED: ReadonlySet<EventType> = new Set([
  'deviceOnline',
  'deviceOffline',
  'deviceUnknown',
  'deviceMoving',
  'deviceStopped',
  'journeyFlagCleared',
  'journeyFlagAcknowledged',
  'journeyFlagResolved',
]);

/** Where the truck was at `time` (the last fix by then) when an event does not say. */
function placeAt(track: ReplayTrack, time: number): [number, number] | null {
  const i = track.index.indexAt(time);
  const p = track.fixes[i];
  return p ? [p.longitude, p.latitude] : null;
}

/**
 * The marks of a replay: stops (from the stops report), events, and flags: a journey's own flags
 * with their review state when replaying a journey, else the flags the events tell of.
 */
export function replayMarks(
  track: ReplayTrack,
  input: { stops?: readonly ReportStop[]; events?: readonly Event[]; flags?: readonly JourneyFlag[] },
): ReplayMark[] {
  const marks: ReplayMark[] = [];
  for (const s of input.stops ?? []) {
    marks.push({
      id: `stop-${s.positionId}-${s.startTime}`,
      kind: 'stop',
      time: Date.parse(s.startTime),
      end: Date.parse(s.endTime),
      lon: s.longitude,
      lat: s.latitude,
      what: 'stop',
    });
  }
  for (const e of input.events ?? []) {
    if (NOT_MARKED.has(e.type)) continue;
    if (e.type === 'journeyFlagOpened' && input.flags) continue; // the journey's own flags say more
    const time = Date.parse(e.eventTime);
    const at = e.latitude !== null && e.longitude !== null ? ([e.longitude, e.latitude] as [number, number]) : placeAt(track, time);
    if (!at) continue;
    const kind: MarkKind = e.type === 'alarm' ? 'alarm' : e.type === 'journeyFlagOpened' ? 'flag' : 'event';
    const detail = e.type === 'alarm' && typeof e.attributes.alarm === 'string' ? e.attributes.alarm : undefined;
    const what = e.type === 'journeyFlagOpened' ? String(e.attributes.flagType ?? e.type) : e.type;
    marks.push({ id: `event-${e.id}`, kind, time, lon: at[0], lat: at[1], what, detail });
  }
  for (const f of input.flags ?? []) {
    marks.push({
      id: `flag-${f.id}`,
      kind: 'flag',
      time: Date.parse(f.openedAt),
      end: f.clearedAt ? Date.parse(f.clearedAt) : undefined,
      lon: f.longitude,
      lat: f.latitude,
      what: f.type,
      detail: f.review,
    });
  }
  return marks.sort((a, b) => a.time - b.time);
}

/** The whole track as one line (drawn once; the cursor moves over it). */
export function trackLine(track: ReplayTrack): FeatureCollection<LineString> {
  const coordinates = track.fixes.map((p) => [p.longitude, p.latitude]);
  return {
    type: 'FeatureCollection',
    features: coordinates.length > 1 ? [{ type: 'Feature', properties: {}, geometry: { type: 'LineString', coordinates } }] : [],
  };
}

export function markFeatures(marks: readonly ReplayMark[]): FeatureCollection<Point> {
  return {
    type: 'FeatureCollection',
    features: marks.map((m): Feature<Point> => ({
      type: 'Feature',
      properties: { kind: m.kind, time: m.time, what: m.what },
      geometry: { type: 'Point', coordinates: [m.lon, m.lat] },
    })),
  };
}

/** Where the cursor is at `time`: between two fixes by the time elapsed (still over a silence). */
export function cursorAt(track: ReplayTrack, time: number): { fix: Position; lon: number; lat: number } | null {
  const { i, frac } = track.index.locate(time, MAX_GLIDE_MS);
  const a = track.fixes[i];
  if (!a) return null;
  const b = frac > 0 ? track.fixes[i + 1] : undefined;
  if (!b) return { fix: a, lon: a.longitude, lat: a.latitude };
  return { fix: a, lon: a.longitude + (b.longitude - a.longitude) * frac, lat: a.latitude + (b.latitude - a.latitude) * frac };
}

/** The fix nearest to a point clicked on the map (the track is searched whole: 8,640 points take well under a millisecond). */
export function nearestFix(track: ReplayTrack, [lon, lat]: [number, number]): number {
  let best = -1;
  let bestD = Infinity;
  const k = Math.cos((lat * Math.PI) / 180) ** 2;
  track.fixes.forEach((p, i) => {
    const d = (p.latitude - lat) ** 2 + (p.longitude - lon) ** 2 * k;
    if (d < bestD) {
      bestD = d;
      best = i;
    }
  });
  return best;
}
