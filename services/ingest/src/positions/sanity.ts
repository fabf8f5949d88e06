import type { DecodedPosition } from '../protocols/protocol';
import { counter } from '@corridor/platform';

export const rejectedPositions = counter('ingest_positions_rejected_total', 'Decoded positions rejected by the sanity check', [
  'protocol',
  'reason',
]);

/**
 * How far ahead of the server clock a fix may be dated (FIX_MAX_FUTURE_SECONDS, default 10 min):
 * a fix dated later is refused, so it can never become a device's latest position and stay there
 * while current fixes arrive (Traccar's filter.future allows a day; a device whose clock runs hours
 * ahead shows up in ingest_positions_rejected_total{reason="future_time"}).
 */
export const MAX_FUTURE_MS = 600 * 1000;
const YEAR_2000 = Date.UTC(2000, 0, 1);

export type SanityReason = 'latitude' | 'longitude' | 'speed' | 'course' | 'future_time' | 'ancient_time' | 'invalid_time';

/** The one sanity check every decoded position passes, whatever its protocol. Null = sane. */
export function sanityCheck(p: DecodedPosition, now: Date, maxFutureMs = MAX_FUTURE_MS): SanityReason | null {
  if (!Number.isFinite(p.latitude) || p.latitude < -90 || p.latitude > 90) return 'latitude';
  if (!Number.isFinite(p.longitude) || p.longitude < -180 || p.longitude > 180) return 'longitude';
  if (!Number.isFinite(p.speed) || p.speed < 0 || p.speed >= 869) return 'speed';
  if (!Number.isFinite(p.course) || p.course < 0 || p.course > 360) return 'course';
  const t = p.fixTime.getTime();
  if (!Number.isFinite(t)) return 'invalid_time';
  if (t > now.getTime() + maxFutureMs) return 'future_time';
  if (t < YEAR_2000) return 'ancient_time';
  return null;
}
