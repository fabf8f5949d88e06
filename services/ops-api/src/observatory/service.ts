import type {
  ObservatoryDwell,
  ObservatoryDwellReport,
  ObservatoryOverview,
  ObservatoryPlaceKind,
  ObservatoryQuery,
  ObservatoryStops,
  ObservatoryStopsReport,
  ObservatoryTransit,
  ObservatoryTransitReport,
} from '@corridor/contracts';
import { AppError, companyScope, type Analytics, type Clock, type Identity } from '@corridor/platform';
import {
  queryDwell,
  queryStops,
  queryTransit,
  type Bucket,
  type DwellRow,
  type IndicatorQuery,
  type StopsRow,
  type TransitRow,
} from './indicator-queries';
import type { ObservatorySettingsStore } from './settings';

const DAY_MS = 86_400_000;
const DEFAULT_PERIOD_DAYS = 84;
const MAX_PERIOD_DAYS = 400;

export interface Period {
  from: Date;
  to: Date;
}

/**
 * The period asked for, widened to whole UTC days (the indicators are kept per day): `to` defaults to
 * now (today counts), `from` to 12 weeks before; 400 when reversed or longer than MAX_PERIOD_DAYS.
 */
export function observatoryPeriod(q: { from?: string; to?: string }, now: Date, defaultDays = DEFAULT_PERIOD_DAYS): Period {
  const to = q.to ? new Date(q.to) : now;
  const from = q.from ? new Date(q.from) : new Date(to.getTime() - defaultDays * DAY_MS);
  if (from >= to)
    throw new AppError('VALIDATION_FAILED', 'The period must end after it begins', [
      { in: 'querystring', path: 'from', message: 'not before to' },
    ]);
  if (to.getTime() - from.getTime() > MAX_PERIOD_DAYS * DAY_MS) {
    throw new AppError('VALIDATION_FAILED', `The period may cover at most ${MAX_PERIOD_DAYS} days`, [
      { in: 'querystring', path: 'from', message: 'period too long' },
    ]);
  }
  // the indicators are kept per UTC day: the period is the whole days it touches
  return { from: new Date(Math.floor(from.getTime() / DAY_MS) * DAY_MS), to: new Date(Math.ceil(to.getTime() / DAY_MS) * DAY_MS) };
}

/**
 * Whose figures a caller gets: a company's users their company against the others together, the
 * others' cells withheld under `minTrucks` trucks (anonymise); the association everyone as one
 * series, or a company it names against the rest (nothing withheld: it sees all). A company role
 * without a company gets only the withheld-or-not others (its own series matches no truck).
 */
export interface Scope {
  companyId?: number;
  anonymise: boolean;
}
function scopeOf(who: Identity, asked: number | undefined): Scope {
  const own = companyScope(who);
  if (own !== undefined) return { companyId: own, anonymise: true };
  return asked === undefined ? { anonymise: false } : { companyId: asked, anonymise: false };
}

const round = (v: number | null, digits = 0): number | null => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);
const wayOf = (d: number): 'forward' | 'reverse' => (d > 0 ? 'forward' : 'reverse');

function transitItem(r: TransitRow, s: Scope, minTrucks: number): Omit<ObservatoryTransit, 'periodStart'> & { periodStart: string } {
  const hide = s.anonymise && r.series === 'others' && r.trucks < minTrucks; // the trucks behind the published times
  const lengthKm = Math.abs(r.to_along - r.from_along) / 1000;
  const median = hide ? null : round(r.p50);
  const keep = <T>(v: T): T | null => (hide ? null : v);
  return {
    periodStart: r.period,
    corridor: r.corridor as ObservatoryTransit['corridor'],
    kind: r.kind,
    fromPlaceId: r.from_place,
    fromName: r.from_name,
    toPlaceId: r.to_place,
    toName: r.to_name,
    direction: wayOf(r.direction),
    lengthKm: round(lengthKm, 1)!,
    series: r.series,
    companyId: r.series === 'company' ? (s.companyId ?? null) : null,
    suppressed: hide,
    trips: keep(r.trips),
    trucks: keep(r.trucks),
    medianSeconds: median,
    p90Seconds: hide ? null : round(r.p90),
    speedKmh: median && median > 0 ? round(lengthKm / (median / 3600), 1) : null,
    excludedLeftCorridor: keep(r.left_corridor),
    excludedLongStop: keep(r.long_stop),
  };
}

function dwellItem(r: DwellRow, s: Scope, minTrucks: number, direction: ObservatoryQuery['direction']): ObservatoryDwell {
  const hide = s.anonymise && r.series === 'others' && r.trucks < minTrucks;
  const keep = <T>(v: T): T | null => (hide ? null : v);
  return {
    periodStart: r.period,
    placeId: r.place_id,
    placeName: r.place_name,
    placeKind: r.place_kind,
    corridor: (r.corridor || null) as ObservatoryDwell['corridor'],
    direction,
    series: r.series,
    companyId: r.series === 'company' ? (s.companyId ?? null) : null,
    suppressed: hide,
    visits: keep(r.visits),
    trucks: keep(r.trucks),
    medianSeconds: hide ? null : round(r.p50),
    p90Seconds: hide ? null : round(r.p90),
    thresholdSeconds: r.threshold,
    overThreshold: keep(r.over),
    overThresholdShare: hide || r.visits === 0 ? null : round(r.over / r.visits, 3),
  };
}

function stopsItem(r: StopsRow, s: Scope, minTrucks: number, direction: ObservatoryQuery['direction']): ObservatoryStops {
  const hide = s.anonymise && r.series === 'others' && r.trucks < minTrucks;
  return {
    periodStart: r.period,
    corridor: r.corridor as ObservatoryStops['corridor'],
    direction,
    series: r.series,
    companyId: r.series === 'company' ? (s.companyId ?? null) : null,
    suppressed: hide,
    stops: hide ? null : r.stops,
    distanceKm: hide ? null : round(r.km, 1),
    trucks: hide ? null : r.trucks,
    stopsPer1000Km: hide || r.km <= 0 ? null : round((r.stops / r.km) * 1000, 2),
  };
}

export function observatoryService(deps: { analytics: Analytics; settings: ObservatorySettingsStore; clock: Clock }) {
  const ch = deps.analytics;
  const indicatorQuery = (q: Pick<ObservatoryQuery, 'corridor' | 'direction'>, p: Period, bucket: Bucket, s: Scope): IndicatorQuery => ({
    from: p.from,
    to: p.to,
    bucket,
    direction: q.direction,
    ...(q.corridor ? { corridor: q.corridor } : {}),
    ...(s.companyId !== undefined ? { companyId: s.companyId } : {}),
  });
  const head = (q: ObservatoryQuery, p: Period, s: Scope, minTrucks: number) => ({
    period: { from: p.from.toISOString(), to: p.to.toISOString() },
    interval: q.interval,
    direction: q.direction,
    companyId: s.companyId ?? null,
    minTrucks,
    generatedAt: deps.clock.now().toISOString(),
  });

  return {
    async transit(q: ObservatoryQuery & { kind?: 'segment' | 'corridor' }, who: Identity): Promise<ObservatoryTransitReport> {
      const p = observatoryPeriod(q, deps.clock.now());
      const s = scopeOf(who, q.companyId);
      const { minTrucks } = await deps.settings.get();
      const rows = await queryTransit(ch, { ...indicatorQuery(q, p, q.interval, s), ...(q.kind ? { kind: q.kind } : {}) });
      return { ...head(q, p, s, minTrucks), items: rows.map((r) => transitItem(r, s, minTrucks)) };
    },

    async dwell(q: ObservatoryQuery & { kind?: ObservatoryPlaceKind[] }, who: Identity): Promise<ObservatoryDwellReport> {
      const p = observatoryPeriod(q, deps.clock.now());
      const s = scopeOf(who, q.companyId);
      const settings = await deps.settings.get();
      const rows = await queryDwell(
        ch,
        { ...indicatorQuery(q, p, q.interval, s), ...(q.kind ? { kinds: q.kind } : {}) },
        settings.dwellThresholdMinutes,
      );
      return { ...head(q, p, s, settings.minTrucks), items: rows.map((r) => dwellItem(r, s, settings.minTrucks, q.direction)) };
    },

    async stops(q: ObservatoryQuery, who: Identity): Promise<ObservatoryStopsReport> {
      const p = observatoryPeriod(q, deps.clock.now());
      const s = scopeOf(who, q.companyId);
      const settings = await deps.settings.get();
      const rows = await queryStops(ch, indicatorQuery(q, p, q.interval, s), settings.minStopMinutes);
      return { ...head(q, p, s, settings.minTrucks), items: rows.map((r) => stopsItem(r, s, settings.minTrucks, q.direction)) };
    },

    /** The whole period per segment (with where its places lie on the line) and per place, for the map. */
    async overview(q: Omit<ObservatoryQuery, 'interval' | 'format'>, who: Identity): Promise<ObservatoryOverview> {
      const p = observatoryPeriod(q, deps.clock.now());
      const s = scopeOf(who, q.companyId);
      const settings = await deps.settings.get();
      const iq = indicatorQuery(q, p, 'total', s);
      const [legs, visits] = await Promise.all([
        queryTransit(ch, { ...iq, kind: 'segment' }),
        queryDwell(ch, iq, settings.dwellThresholdMinutes),
      ]);
      return {
        period: { from: p.from.toISOString(), to: p.to.toISOString() },
        companyId: s.companyId ?? null,
        minTrucks: settings.minTrucks,
        segments: legs.map((r) => {
          const { periodStart: _period, ...item } = transitItem(r, s, settings.minTrucks);
          return { ...item, fromAlongM: Math.round(r.from_along), toAlongM: Math.round(r.to_along) };
        }),
        places: visits.map((r) => {
          const { periodStart: _period, ...item } = dwellItem(r, s, settings.minTrucks, q.direction);
          return item;
        }),
      };
    },
  };
}
export type ObservatoryService = ReturnType<typeof observatoryService>;
