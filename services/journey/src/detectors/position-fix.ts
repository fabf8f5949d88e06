import type { PositionMessage } from '@corridor/contracts';
import type { JourneyFix, SealSignal } from './flag-change';

type Readable = Pick<PositionMessage, 'fixTime' | 'latitude' | 'longitude' | 'speed' | 'valid'> &
  Partial<Pick<PositionMessage, 'alarm' | 'attributes'>>;

/**
 * What a position says about a seal: `unlock` opens it (any lock reporting Traccar's alarm),
 * `tampering` counts only from a seal (a position with `sealEvent`, as the JT701 decoder writes),
 * `lock` (boolean attribute, else a `lock` alarm) is its state. Undefined when it says nothing.
 */
export function sealSignalOf(position: Pick<Readable, 'alarm' | 'attributes'>): SealSignal | undefined {
  const alarms = position.alarm ? position.alarm.split(',') : [];
  const attrs = position.attributes ?? {};
  const sealEvent = typeof attrs.sealEvent === 'string' ? attrs.sealEvent : null;
  const locked = typeof attrs.lock === 'boolean' ? attrs.lock : alarms.includes('lock') ? true : null;
  const opened = alarms.includes('unlock');
  const tampered = alarms.includes('tampering') && sealEvent !== null;
  if (!opened && !tampered && locked === null) return undefined;
  return { opened, tampered, locked, sealEvent };
}

/** The fields of a positions.v1 message the journey detectors read. */
export function fixFromPosition(position: Readable): JourneyFix {
  const fix: JourneyFix = {
    time: Date.parse(position.fixTime),
    latitude: position.latitude,
    longitude: position.longitude,
    speedKnots: position.speed,
    valid: position.valid,
  };
  const seal = sealSignalOf(position);
  if (seal) fix.seal = seal;
  return fix;
}
