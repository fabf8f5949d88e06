import type { DecodedPosition, DecodeResult } from './protocol';

/**
 * Builds decode results the same way for every protocol: device data is gathered under Traccar's
 * attribute keys and units (batteryLevel %, battery and power V, ignition, charge, rssi, odometer m,
 * hdop, ...), then either placed on a fix (the keys positions.v1 carries as columns move out of
 * the attributes) or returned as a state record (`positions: []` with the attributes, alarms as
 * events) that ingest completes with the last known location.
 */
export type Attributes = DecodedPosition['attributes'];

/** The parts of a fix every protocol reads itself. */
export type Fix = Pick<DecodedPosition, 'fixTime' | 'valid' | 'latitude' | 'longitude' | 'speed' | 'course' | 'altitude' | 'satellites'>;

/** Collects Traccar alarm names in order without repeats (Traccar's addAlarm joins them with commas). */
export class Alarms {
  private readonly list: string[] = [];
  add(alarm: string | null | undefined): void {
    if (alarm && !this.list.includes(alarm)) this.list.push(alarm);
  }
  get all(): readonly string[] {
    return this.list;
  }
  get joined(): string | null {
    return this.list.length ? this.list.join(',') : null;
  }
}

function numberOrNull(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

/** Removes `key` from `rest` and returns its value (a function, not a closure made per fix: issue 28). */
function take(rest: Attributes, key: string): unknown {
  const v = rest[key];
  delete rest[key];
  return v;
}

/** A fix with the attributes; ignition, power, battery, odometer, hdop, satellites and altitude become fields. */
export function positionOf(fix: Fix, attributes: Attributes, alarms: Alarms, deviceId: string | undefined): DecodedPosition {
  const rest: Attributes = { ...attributes };
  const ignition = take(rest, 'ignition');
  const power = numberOrNull(take(rest, 'power'));
  const battery = numberOrNull(take(rest, 'battery'));
  const odometer = numberOrNull(take(rest, 'odometer'));
  const hdop = numberOrNull(take(rest, 'hdop'));
  const satellites = numberOrNull(take(rest, 'sat')) ?? fix.satellites ?? null;
  const altitude = numberOrNull(take(rest, 'altitude')) ?? fix.altitude ?? null;
  delete rest.alarm;
  return {
    deviceId,
    fixTime: fix.fixTime,
    valid: fix.valid,
    latitude: fix.latitude,
    longitude: fix.longitude,
    speed: fix.speed,
    course: fix.course,
    altitude,
    satellites,
    hdop,
    ignition: typeof ignition === 'boolean' ? ignition : null,
    odometer: odometer !== null && odometer >= 0 ? odometer : null,
    power,
    battery,
    alarm: alarms.joined,
    attributes: rest,
  };
}

interface ResultOptions {
  type: string;
  crcValid: boolean;
  ack?: Buffer | undefined;
  deviceId?: string | undefined;
}

function base(kind: DecodeResult['kind'], positions: DecodedPosition[], o: ResultOptions): DecodeResult {
  const result: DecodeResult = { kind, positions, crcValid: o.crcValid, type: o.type };
  if (o.ack) result.ack = o.ack;
  if (o.deviceId) result.deviceId = o.deviceId;
  return result;
}

/** One or more fixes; an alarm on any of them makes the frame an alarm frame with its events. */
export function positionsResult(positions: DecodedPosition[], o: ResultOptions): DecodeResult {
  const alarms = positions.flatMap((p) => (p.alarm ? p.alarm.split(',') : []));
  const result = base(alarms.length ? 'alarm' : 'position', positions, o);
  if (alarms.length) result.events = alarms.map((alarm) => ({ alarm }));
  return result;
}

/**
 * Device state without a fix (status, heartbeat, LBS/Wi-Fi, information packets): the attributes
 * (with `alarm` when there is one) and the alarms as events. `kind` defaults to `state`; a report
 * that carried nothing decodable is a `heartbeat` without attributes.
 */
export function stateResult(
  attributes: Attributes,
  alarms: Alarms,
  o: ResultOptions & { kind?: 'state' | 'heartbeat'; deviceTime?: Date | null },
): DecodeResult {
  const empty = Object.keys(attributes).length === 0 && alarms.all.length === 0;
  const result = base(alarms.all.length ? 'alarm' : empty ? 'heartbeat' : (o.kind ?? 'state'), [], o);
  const attrs: Attributes = { ...attributes };
  if (alarms.joined) attrs.alarm = alarms.joined;
  if (!empty) result.attributes = attrs;
  if (alarms.all.length) result.events = alarms.all.map((alarm) => ({ alarm }));
  if (o.deviceTime) result.deviceTime = o.deviceTime;
  return result;
}

/** A command reply: the text under Traccar's `result` key (published as a commandResult event). */
export function commandResult(text: string, o: ResultOptions, attributes: Attributes = {}): DecodeResult {
  const result = base('result', [], o);
  result.attributes = { ...attributes, result: text };
  return result;
}

/** A frame that yields nothing stored: counted per protocol and type with `reason`, and logged. */
export function ignoredResult(reason: string, o: ResultOptions): DecodeResult {
  const result = base('ignored', [], o);
  result.ignoredReason = reason;
  return result;
}
