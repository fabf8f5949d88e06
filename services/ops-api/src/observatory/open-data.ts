import { stringify } from 'csv-stringify/sync';
import {
  OPEN_DATA_SCHEMA_VERSION,
  ObservatoryOpenDataRow,
  type ObservatoryDirection,
  type ObservatoryInterval,
  type ObservatoryOpenData,
} from '@corridor/contracts';
import type { Analytics, Clock } from '@corridor/platform';
import { queryDwell, queryStops, queryTransit, type IndicatorQuery } from './indicator-queries';
import { observatoryPeriod, type Period } from './service';
import type { ObservatorySettingsStore } from './settings';

const DAY_MS = 86_400_000;

/** The start (UTC) of the week (Monday) or month holding `t`. */
function periodStartOf(t: Date, interval: ObservatoryInterval): Date {
  if (interval === 'month') return new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), 1));
  const day = new Date(Date.UTC(t.getUTCFullYear(), t.getUTCMonth(), t.getUTCDate()));
  return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
}
function nextPeriod(start: string, interval: ObservatoryInterval): string {
  const d = new Date(`${start}T00:00:00Z`);
  const next = interval === 'month' ? new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)) : new Date(d.getTime() + 7 * DAY_MS);
  return next.toISOString().slice(0, 10);
}

/** Whole periods only: from the start of the period holding `from` to the start of the one holding `to` (which has not ended). */
function wholePeriods(p: Period, interval: ObservatoryInterval): Period {
  return { from: periodStartOf(p.from, interval), to: periodStartOf(p.to, interval) };
}

type Row = ObservatoryOpenDataRow;
const blank = {
  schemaVersion: OPEN_DATA_SCHEMA_VERSION,
  corridor: '',
  fromPlace: '',
  toPlace: '',
  place: '',
  placeKind: '',
  count: null,
  trucks: null,
  medianSeconds: null,
  p90Seconds: null,
  overThresholdShare: null,
  thresholdSeconds: null,
  distanceKm: null,
  stopsPer1000Km: null,
} as const;
const round = (v: number | null, digits = 0): number | null => (v === null ? null : Math.round(v * 10 ** digits) / 10 ** digits);

/**
 * The open data: every indicator for everyone together, per whole week or month, each direction and
 * both together, cells of fewer than minTrucks trucks withheld (each row says minTrucks). No device id, no company id, no
 * name of either is read into it: the queries run without a company (series 'all').
 */
export function openData(deps: { analytics: Analytics; settings: ObservatorySettingsStore; clock: Clock }) {
  return async (q: { interval: ObservatoryInterval; from?: string; to?: string }): Promise<ObservatoryOpenData> => {
    const asked = observatoryPeriod(q, deps.clock.now(), q.interval === 'month' ? 366 : 84);
    const p = wholePeriods(asked, q.interval);
    const settings = await deps.settings.get();
    const k = settings.minTrucks;
    const base = {
      schemaVersion: OPEN_DATA_SCHEMA_VERSION,
      generatedAt: deps.clock.now().toISOString(),
      period: { from: p.from.toISOString(), to: p.to.toISOString() },
      interval: q.interval,
      minTrucks: k,
    } as const;
    if (p.from >= p.to) return { ...base, rows: [] };
    const iq = (direction: ObservatoryDirection): IndicatorQuery => ({ from: p.from, to: p.to, bucket: q.interval, direction });
    const ways: ObservatoryDirection[] = ['forward', 'reverse', 'both'];
    const [legs, visits, stops] = await Promise.all([
      queryTransit(deps.analytics, iq('both')),
      Promise.all(ways.map(async (w) => ({ w, rows: await queryDwell(deps.analytics, iq(w), settings.dwellThresholdMinutes) }))),
      Promise.all(ways.map(async (w) => ({ w, rows: await queryStops(deps.analytics, iq(w), settings.minStopMinutes) }))),
    ]);
    const rows: Row[] = [];
    const empty = { ...blank, minTrucks: k };
    for (const r of legs) {
      const hide = r.trucks < k; // the trucks behind the published times
      rows.push({
        ...empty,
        indicator: r.kind === 'corridor' ? 'corridor_transit' : 'transit',
        periodStart: r.period,
        periodEnd: nextPeriod(r.period, q.interval),
        corridor: r.corridor,
        fromPlace: r.from_name,
        toPlace: r.to_name,
        direction: r.direction > 0 ? 'forward' : 'reverse',
        suppressed: hide,
        ...(hide ? {} : { count: r.trips, trucks: r.trucks, medianSeconds: round(r.p50), p90Seconds: round(r.p90) }),
      });
    }
    for (const { w, rows: dwell } of visits) {
      for (const r of dwell) {
        const hide = r.trucks < k;
        rows.push({
          ...empty,
          indicator: 'dwell',
          periodStart: r.period,
          periodEnd: nextPeriod(r.period, q.interval),
          corridor: r.corridor,
          place: r.place_name,
          placeKind: r.place_kind,
          direction: w,
          thresholdSeconds: r.threshold,
          suppressed: hide,
          ...(hide
            ? {}
            : {
                count: r.visits,
                trucks: r.trucks,
                medianSeconds: round(r.p50),
                p90Seconds: round(r.p90),
                overThresholdShare: round(r.over / r.visits, 3),
              }),
        });
      }
    }
    for (const { w, rows: st } of stops) {
      for (const r of st) {
        const hide = r.trucks < k;
        rows.push({
          ...empty,
          indicator: 'stops',
          periodStart: r.period,
          periodEnd: nextPeriod(r.period, q.interval),
          corridor: r.corridor,
          direction: w,
          suppressed: hide,
          ...(hide
            ? {}
            : {
                count: r.stops,
                trucks: r.trucks,
                distanceKm: round(r.km, 1),
                stopsPer1000Km: r.km > 0 ? round((r.stops / r.km) * 1000, 2) : null,
              }),
        });
      }
    }
    return { ...base, rows: rows.map((r) => ObservatoryOpenDataRow.parse(r)) };
  };
}

/** The stable CSV: one header line of the row's keys in the contract's order, then the rows; empty cells for withheld or absent figures. */
export function openDataCsv(data: ObservatoryOpenData): string {
  const keys = Object.keys(ObservatoryOpenDataRow.shape) as (keyof ObservatoryOpenDataRow)[];
  return stringify([keys, ...data.rows.map((r) => keys.map((k) => (r[k] === null ? '' : r[k])))], {
    cast: { boolean: (b) => (b ? 'true' : 'false') },
  });
}
