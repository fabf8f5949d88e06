import { DecodeError, type DecodedPosition } from './protocol';

/**
 * OsmAnd protocol over HTTP (Traccar Client and OsmAnd apps; Traccar's default port 5055).
 * Facts from Traccar's OsmAnd protocol documentation (traccar.org/osmand): parameters in the
 * query string or a form body: id|deviceid, lat, lon (or location=lat,lon), timestamp (epoch
 * seconds, epoch milliseconds or ISO 8601), speed in knots, bearing|heading, altitude, accuracy,
 * hdop, batt; everything else is kept as an attribute. Current Traccar Client apps POST JSON:
 * { device_id, location: { timestamp, coords: { latitude, longitude, speed (m/s), heading,
 * altitude, accuracy }, battery: { level, is_charging }, is_moving, odometer, event } }.
 */
export const PROTOCOL = 'osmand';
export const OSMAND_PORT = 5055;

const MPS_TO_KNOTS = 1.943844492;

export interface OsmAndFix {
  uniqueId: string;
  position: DecodedPosition;
}

type Params = Record<string, string | string[] | undefined>;

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

function num(params: Params, name: string, opts: { min?: number; max?: number } = {}): number | undefined {
  const raw = first(params[name]);
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new DecodeError('bad_field', `${name}: not a number (${JSON.stringify(raw.slice(0, 40))})`);
  if (opts.min !== undefined && n < opts.min) throw new DecodeError('bad_field', `${name}: must be at least ${opts.min}`);
  if (opts.max !== undefined && n > opts.max) throw new DecodeError('bad_field', `${name}: must be at most ${opts.max}`);
  return n;
}

/** epoch seconds, epoch milliseconds, or ISO 8601 (with or without zone; no zone = UTC). */
function parseTimestamp(raw: string, field = 'timestamp'): Date {
  const s = raw.trim();
  if (/^\d+(\.\d+)?$/.test(s)) {
    const n = Number(s);
    const d = new Date(n > 1e11 ? n : n * 1000);
    if (Number.isFinite(d.getTime())) return d;
  } else if (/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(s)) {
    const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s : s + 'Z';
    const d = new Date(zoned.replace(' ', 'T'));
    if (Number.isFinite(d.getTime())) return d;
  }
  throw new DecodeError(
    'bad_field',
    `${field}: expected epoch seconds, epoch milliseconds or ISO 8601, got ${JSON.stringify(s.slice(0, 40))}`,
  );
}

const KNOWN = new Set([
  'id',
  'deviceid',
  'lat',
  'lon',
  'location',
  'timestamp',
  'speed',
  'bearing',
  'heading',
  'altitude',
  'accuracy',
  'hdop',
  'batt',
  'valid',
]);

/** Query-string or form parameters → one fix. Throws DecodeError naming the wrong field. */
export function decodeParams(params: Params, now: Date): OsmAndFix {
  const uniqueId = first(params.id) ?? first(params.deviceid);
  if (!uniqueId) throw new DecodeError('missing_field', 'id: required (the device unique id)');
  if (uniqueId.length > 64) throw new DecodeError('bad_field', 'id: at most 64 characters');
  let lat = num(params, 'lat', { min: -90, max: 90 });
  let lon = num(params, 'lon', { min: -180, max: 180 });
  const location = first(params.location);
  if ((lat === undefined || lon === undefined) && location) {
    const [a, b] = location.split(',').map(Number);
    if (a === undefined || b === undefined || !Number.isFinite(a) || !Number.isFinite(b))
      throw new DecodeError('bad_field', 'location: expected "lat,lon"');
    lat = a;
    lon = b;
  }
  if (lat === undefined) throw new DecodeError('missing_field', 'lat: required');
  if (lon === undefined) throw new DecodeError('missing_field', 'lon: required');
  const ts = first(params.timestamp);
  const attributes: DecodedPosition['attributes'] = {};
  for (const [k, v] of Object.entries(params)) {
    const val = first(v);
    if (KNOWN.has(k) || val === undefined) continue;
    const asNum = Number(val);
    attributes[k] = val !== '' && Number.isFinite(asNum) ? asNum : val === 'true' ? true : val === 'false' ? false : val;
  }
  const accuracy = num(params, 'accuracy', { min: 0 });
  if (accuracy !== undefined) attributes.accuracy = accuracy;
  const batt = num(params, 'batt');
  if (batt !== undefined) attributes.batteryLevel = batt;
  const validRaw = first(params.valid);
  return {
    uniqueId,
    position: {
      deviceId: uniqueId,
      fixTime: ts ? parseTimestamp(ts) : now,
      valid: validRaw === undefined ? true : validRaw === 'true' || validRaw === '1',
      latitude: lat,
      longitude: lon,
      speed: num(params, 'speed', { min: 0 }) ?? 0,
      course: num(params, 'bearing', { min: 0, max: 360 }) ?? num(params, 'heading', { min: 0, max: 360 }) ?? 0,
      altitude: num(params, 'altitude') ?? null,
      hdop: num(params, 'hdop', { min: 0 }) ?? null,
      // batt is a percentage: Traccar's batteryLevel (battery is volts)
      attributes,
    },
  };
}

interface JsonLocation {
  timestamp?: unknown;
  coords?: Record<string, unknown>;
  battery?: Record<string, unknown>;
  is_moving?: unknown;
  odometer?: unknown;
  event?: unknown;
  activity?: { type?: unknown };
}

const jsonNum = (v: unknown, field: string): number | undefined => {
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new DecodeError('bad_field', `${field}: not a number`);
  return n;
};

/** The JSON body of current Traccar Client apps. Speed arrives in m/s and leaves in knots. */
export function decodeJson(body: unknown, now: Date): OsmAndFix {
  if (typeof body !== 'object' || body === null) throw new DecodeError('bad_body', 'body: expected a JSON object');
  const b = body as { device_id?: unknown; location?: JsonLocation };
  const uniqueId = typeof b.device_id === 'string' || typeof b.device_id === 'number' ? String(b.device_id) : undefined;
  if (!uniqueId) throw new DecodeError('missing_field', 'device_id: required');
  const loc = b.location;
  if (!loc || typeof loc !== 'object') throw new DecodeError('missing_field', 'location: required');
  const c = loc.coords ?? {};
  const lat = jsonNum(c.latitude, 'location.coords.latitude');
  const lon = jsonNum(c.longitude, 'location.coords.longitude');
  if (lat === undefined) throw new DecodeError('missing_field', 'location.coords.latitude: required');
  if (lon === undefined) throw new DecodeError('missing_field', 'location.coords.longitude: required');
  if (lat < -90 || lat > 90) throw new DecodeError('bad_field', 'location.coords.latitude: out of range');
  if (lon < -180 || lon > 180) throw new DecodeError('bad_field', 'location.coords.longitude: out of range');
  const speedMps = jsonNum(c.speed, 'location.coords.speed');
  const heading = jsonNum(c.heading, 'location.coords.heading');
  const accuracy = jsonNum(c.accuracy, 'location.coords.accuracy');
  const attributes: DecodedPosition['attributes'] = {};
  if (accuracy !== undefined && accuracy >= 0) attributes.accuracy = accuracy;
  const level = jsonNum(loc.battery?.level, 'location.battery.level');
  if (level !== undefined) attributes.batteryLevel = Math.round(level * 100);
  if (typeof loc.battery?.is_charging === 'boolean') attributes.charge = loc.battery.is_charging;
  if (typeof loc.is_moving === 'boolean') attributes.motion = loc.is_moving;
  const odometer = jsonNum(loc.odometer, 'location.odometer');
  if (typeof loc.event === 'string') attributes.event = loc.event;
  if (typeof loc.activity?.type === 'string') attributes.activity = loc.activity.type;
  const ts = loc.timestamp;
  return {
    uniqueId,
    position: {
      deviceId: uniqueId,
      fixTime: typeof ts === 'string' || typeof ts === 'number' ? parseTimestamp(String(ts), 'location.timestamp') : now,
      valid: true,
      latitude: lat,
      longitude: lon,
      speed: speedMps !== undefined && speedMps > 0 ? speedMps * MPS_TO_KNOTS : 0,
      course: heading !== undefined && heading >= 0 && heading <= 360 ? heading : 0,
      altitude: jsonNum(c.altitude, 'location.coords.altitude') ?? null,
      odometer: odometer ?? null,
      battery: level !== undefined ? Math.round(level * 100) : null,
      attributes,
    },
  };
}
