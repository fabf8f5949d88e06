import type { PositionMessage } from '@corridor/contracts/positions';
import type { JourneyFix } from './flag-change';

/** The fields of a positions.v1 message the journey detectors read. */
export function fixFromPosition(position: Pick<PositionMessage, 'fixTime' | 'latitude' | 'longitude' | 'speed' | 'valid'>): JourneyFix {
  return {
    time: Date.parse(position.fixTime),
    latitude: position.latitude,
    longitude: position.longitude,
    speedKnots: position.speed,
    valid: position.valid,
  };
}
