import { z } from 'zod';

/**
 * A user's preferences, kept as Traccar keeps them: in the user's `attributes` (speedUnit,
 * distanceUnit, timezone, language, darkMode) and the User's own `coordinateFormat`, each falling
 * back to the server's attributes (GET /server), then to a default. One reading for the console
 * (its screens) and the services (exports, notices), so both show a user the same units.
 */
export const SpeedUnit = z.enum(['kmh', 'kn', 'mph']);
export type SpeedUnit = z.infer<typeof SpeedUnit>;
export const DistanceUnit = z.enum(['km', 'mi', 'nmi']);
export type DistanceUnit = z.infer<typeof DistanceUnit>;
/** Decimal degrees, degrees and decimal minutes, degrees minutes seconds (Traccar's dd, ddm, dms). */
export const CoordinateFormat = z.enum(['dd', 'ddm', 'dms']);
export type CoordinateFormat = z.infer<typeof CoordinateFormat>;
export const PreferenceLanguage = z.enum(['en', 'sw']);
export type PreferenceLanguage = z.infer<typeof PreferenceLanguage>;

/** An IANA time zone the runtime knows (Africa/Nairobi). */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'an IANA time zone such as Africa/Nairobi');

export interface Preferences {
  speedUnit: SpeedUnit;
  distanceUnit: DistanceUnit;
  /** null: the browser's zone on screens, UTC in files the server writes. */
  timezone: string | null;
  coordinateFormat: CoordinateFormat;
  /** null: the browser's language (the console), else English. */
  language: PreferenceLanguage | null;
  /** null: follow the system's light or dark setting. */
  darkMode: boolean | null;
}

export const PREFERENCE_DEFAULTS: Preferences = {
  speedUnit: 'kmh',
  distanceUnit: 'km',
  timezone: null,
  coordinateFormat: 'dd',
  language: null,
  darkMode: null,
};

/** The preferences as a form edits them (every one; null: the server's or the browser's). */
export const PreferencesInput = z.object({
  speedUnit: SpeedUnit,
  distanceUnit: DistanceUnit,
  timezone: TimeZone.nullable(),
  coordinateFormat: CoordinateFormat,
  language: PreferenceLanguage.nullable(),
  darkMode: z.boolean().nullable(),
});

/** The attribute keys (Traccar's names); coordinateFormat is a field of the User, not an attribute. */
export const PREFERENCE_ATTRIBUTES = ['speedUnit', 'distanceUnit', 'timezone', 'language', 'darkMode'] as const;

const pick = <T>(schema: z.ZodType<T>, ...values: unknown[]): T | undefined => {
  for (const v of values) {
    const r = schema.safeParse(v);
    if (r.success) return r.data;
  }
  return undefined;
};

/**
 * A user's preferences from their attributes (and coordinateFormat), then the server's attributes,
 * then the defaults. A value that is not one of the allowed ones is passed over, not an error.
 */
export function preferencesOf(
  user: { attributes?: Record<string, unknown>; coordinateFormat?: string | null } | undefined,
  server?: { attributes?: Record<string, unknown>; coordinateFormat?: string | null },
): Preferences {
  const u = user?.attributes ?? {};
  const s = server?.attributes ?? {};
  const d = PREFERENCE_DEFAULTS;
  return {
    speedUnit: pick(SpeedUnit, u.speedUnit, s.speedUnit) ?? d.speedUnit,
    distanceUnit: pick(DistanceUnit, u.distanceUnit, s.distanceUnit) ?? d.distanceUnit,
    timezone: pick(TimeZone, u.timezone, s.timezone) ?? d.timezone,
    coordinateFormat: pick(CoordinateFormat, user?.coordinateFormat, server?.coordinateFormat) ?? d.coordinateFormat,
    language: pick(PreferenceLanguage, u.language, s.language) ?? d.language,
    darkMode: pick(z.boolean(), u.darkMode) ?? d.darkMode,
  };
}

/** The attributes that store these preferences (the others of `attributes` kept); null removes a key. */
export function withPreferences(
  attributes: Record<string, unknown>,
  p: Partial<Omit<Preferences, 'coordinateFormat'>>,
): Record<string, unknown> {
  const out = { ...attributes };
  for (const key of PREFERENCE_ATTRIBUTES) {
    if (!(key in p)) continue;
    const v = p[key];
    if (v === null || v === undefined) delete out[key];
    else out[key] = v;
  }
  return out;
}

const KM_PER_KNOT = 1.852;
const METRES_PER = { km: 1000, mi: 1609.344, nmi: 1852 } as const;

/** A speed in knots (the wire's unit) in the given unit. */
export function speedIn(knots: number, unit: SpeedUnit): number {
  if (unit === 'kn') return knots;
  const kmh = knots * KM_PER_KNOT;
  return unit === 'kmh' ? kmh : kmh / 1.609344;
}

/** A distance in metres in the given unit (km, miles, nautical miles). */
export const distanceIn = (metres: number, unit: DistanceUnit): number => metres / METRES_PER[unit];

/** A speed in the given unit back to knots (what an API field such as speedLimit takes). */
export function knotsFrom(value: number, unit: SpeedUnit): number {
  if (unit === 'kn') return value;
  const kmh = unit === 'kmh' ? value : value * 1.609344;
  return kmh / KM_PER_KNOT;
}

/** A distance in the given unit back to metres. */
export const metresFrom = (value: number, unit: DistanceUnit): number => value * METRES_PER[unit];

/** Unit symbols as people write them (the same in English and Swahili). */
export const SPEED_SYMBOL: Record<SpeedUnit, string> = { kmh: 'km/h', kn: 'kn', mph: 'mph' };
export const DISTANCE_SYMBOL: Record<DistanceUnit, string> = { km: 'km', mi: 'mi', nmi: 'NM' };
