import { flagOf, lookupSetting } from '@corridor/platform';
import type { FenceShape, LonLat } from '../fences/fence';
import { containsPoint } from '../fences/geometry';
import { segmentCrosses } from '../fences/segment-crossing';

/** Traccar's setting (server, device or group attribute; default false). */
const SEGMENT_CROSSING_KEY = 'event.geofence.segmentCrossing';

/** Whether crossings are reported for a device whose setting layers (device, groups, server) are given. */
export const segmentCrossingOn = (layers: readonly Record<string, unknown>[]): boolean =>
  lookupSetting(layers, SEGMENT_CROSSING_KEY, flagOf) ?? false;

/**
 * The fences the straight segment between two consecutive fixes passes through while neither fix
 * is inside them (Traccar's geofenceCrossed), ordered by id. `candidates` are the fences near the
 * segment; `shapeOf` gives the shape of those that apply to the device at the new fix (linked,
 * calendar active), undefined for the rest; `skip` the fences the device is a member of before or
 * after the fix (inside, dwelling or within an exit margin: their enter/exit rules decide).
 */
export function crossedFences(
  from: LonLat,
  to: LonLat,
  candidates: readonly string[],
  shapeOf: (id: string) => FenceShape | undefined,
  skip: (id: string) => boolean,
): string[] {
  const out: string[] = [];
  for (const id of candidates) {
    if (skip(id)) continue;
    const shape = shapeOf(id);
    if (!shape || containsPoint(shape, from[0], from[1]) || containsPoint(shape, to[0], to[1])) continue;
    if (segmentCrosses(shape, from, to)) out.push(id);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}
