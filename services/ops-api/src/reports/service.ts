import type { z } from 'zod';
import { apiPosition } from '@corridor/contracts';
import type {
  CombinedReportItem,
  Event,
  ReportCombinedQuery,
  ReportEventsQuery,
  ReportGeofence,
  ReportGeofencesQuery,
  ReportRouteQuery,
  ReportStop,
  ReportSummary,
  ReportSummaryQuery,
  ReportTrip,
  ReportTripsQuery,
} from '@corridor/contracts';
import { addressedEvent, addressedPosition, queryPositionsById, type Analytics, type Geocoder, type Orm } from '@corridor/platform';
import {
  queryFixesAt,
  queryStoredAt,
  streamReportFixes,
  streamRouteRows,
  type FixKey,
  type ReportFixRow,
  type RouteRow,
} from '../clickhouse/report-positions';
import { streamTracks } from '../clickhouse/report-track';
import { freshRunDays } from '../clickhouse/report-track-runs';
import { streamMotionRuns } from '../clickhouse/report-motion-runs';
import { streamEvents } from '../clickhouse/report-events';
import { streamSummaryParts } from '../clickhouse/report-summary';
import { EARTH_RADIUS_M } from '@corridor/geodata/geo-math';
import type { DevicesRepository } from '../devices/repository';
import { dayBoundaries } from './calendar-days';
import { combinedItems } from './combined';
import { perDevice, type DeviceRun } from './device-runs';
import { driverNamer } from './driver-names';
import { apiEvents, eventTypesFilter } from './events';
import { byStartTime, geofenceVisits } from './geofences';
import { reportPeriod, type Period } from './period';
import { reportDevices, type ReportDevice } from './report-devices';
import type { ReportSettings, TripThresholds } from './settings';
import type { Interval } from './intervals';
import { stopItem, stopsRun } from './stops';
import { summaryRun } from './summary';
import { resolveThresholds } from './thresholds';
import { motionRunItems, runsAnswer, runThresholds } from './motion-runs';
import { stillRunSpan, trackRuns } from './track-runs';
import { tripItem, tripsRun } from './trips';
import { mapped, stopAddresses, tripAddresses } from './addresses';
import type { AddressedRouteRow } from './route';

export interface ReportsDeps {
  analytics: Analytics;
  db: Orm;
  devices: DevicesRepository;
  settings: ReportSettings;
  /** Trips' and stops' addresses (and the offline ones of events, route rows and combined positions). */
  geocoder: Geocoder;
}

/** A report ready to send: what it covers and its items, batch by batch as they are computed. */
export interface Report<T> {
  devices: ReportDevice[];
  period: Period;
  batches: AsyncIterable<T[]>;
}

type Base = { deviceId?: number[]; groupId?: number[]; from: string; to: string };

/**
 * The five reports over ClickHouse. Every one resolves and checks the devices and the period first
 * (so a refusal is a clean 4xx), then streams: positions are read in order (in pages on chDB) and
 * folded per device, never held for the whole period. `signal` aborts the reads (the client went
 * away): the query in flight is cancelled and no further page is asked for.
 */
export function reportsService(deps: ReportsDeps) {
  const resolveDevices = reportDevices(deps.db, deps.devices);
  const fixes = streamReportFixes(deps.analytics);
  const tracks = streamTracks(deps.analytics);
  const freshDays = freshRunDays(deps.analytics);
  const motionRuns = streamMotionRuns(deps.analytics);
  const fixesAt = queryFixesAt(deps.analytics);
  const storedAt = queryStoredAt(deps.analytics);
  const routeRows = streamRouteRows(deps.analytics);
  const events = streamEvents(deps.analytics);
  const summaryParts = streamSummaryParts(deps.analytics);
  const nameDrivers = driverNamer(deps.db);
  const byIds = queryPositionsById(deps.analytics);
  const positionsById = async (ids: number[]) => (await byIds(ids)).map((p) => apiPosition(addressedPosition(deps.geocoder, p)));
  const addTripAddresses = tripAddresses(deps.geocoder);
  const addStopAddresses = stopAddresses(deps.geocoder);

  async function prepare(q: Base, scope: number | undefined, signal: AbortSignal | undefined) {
    const period = reportPeriod(q, deps.settings.maxPeriodDays);
    const devices = await resolveDevices(q, scope);
    const byId = new Map(devices.map((d) => [d.id, d]));
    const source = { deviceIds: devices.map((d) => d.id), ...period, pageRows: deps.settings.pageRows, signal };
    return { period, devices, byId, source };
  }
  type Source = Awaited<ReturnType<typeof prepare>>['source'];

  /**
   * Trips or stops of the devices, from where the settings say: by default folded from the lean
   * track; 'store' computes them in the analytics store with window functions (motion-runs.ts) when
   * every device uses the older motion model (else the track fold); 'rows' folds every fix read
   * whole (the reference the others are tested against). The store's window functions are slower
   * than the track fold on chDB (bench/results/reports.json, `*_old_logic_*`), so they are not the default.
   */
  function intervalItems<T>(
    kind: 'trips' | 'stops',
    q: z.output<typeof ReportTripsQuery>,
    devices: ReportDevice[],
    source: Source,
    run: (id: number, t: TripThresholds) => DeviceRun<ReportFixRow, T>,
    item: (id: number, iv: Interval, t: TripThresholds) => T,
  ): AsyncIterable<T[]> {
    const thresholds = new Map(devices.map((d) => [d.id, resolveThresholds(deps.settings.trips, d.attributes, q)]));
    const thresholdsOf = (id: number) => thresholds.get(id)!;
    const asked = deps.settings.motionInput ?? 'track';
    const input = asked === 'store' && ![...thresholds.values()].every(runsAnswer) ? 'track' : asked;
    if (input === 'rows') return perDevice(fixes(source), (id) => run(id, thresholdsOf(id)));
    const o = { kind, thresholdsOf, item: (id: number, iv: Interval) => item(id, iv, thresholdsOf(id)) };
    if (input === 'track') {
      const lookup = (keys: FixKey[]) => storedAt(keys, source.signal);
      const spans = new Map<number, number>();
      for (const [id, t] of thresholds) {
        const span = stillRunSpan(t);
        if (span !== undefined) spans.set(id, span / 1000);
      }
      const useRuns = deps.settings.storedRuns !== false && spans.size > 0;
      return (async function* () {
        // the whole days of the period whose stored runs are fresh are read as runs (report-track-runs.ts)
        const runs = useRuns
          ? { fresh: await freshDays([...spans.keys()], source.from, source.to, source.signal), spanSeconds: spans }
          : undefined;
        yield* trackRuns(tracks({ ...source, stillRunSpan: (id) => stillRunSpan(thresholdsOf(id)), runs }), { ...o, lookup });
      })();
    }
    const lookup = (keys: FixKey[]) => fixesAt(keys, source.signal);
    return motionRunItems(
      motionRuns({
        ...source,
        thresholdsOf: (id) => runThresholds(thresholdsOf(id)),
        radiusMetres: EARTH_RADIUS_M,
        maxSpeed: deps.settings.trips.maxSpeed,
      }),
      { ...o, lookup },
    );
  }

  return {
    async route(q: z.output<typeof ReportRouteQuery>, scope: number | undefined, signal?: AbortSignal): Promise<Report<AddressedRouteRow>> {
      const { period, devices, source } = await prepare(q, scope, signal);
      // the row is fresh from the read: its address is appended in place, no copy per position
      const addressed = (r: RouteRow): AddressedRouteRow => {
        (r as unknown as AddressedRouteRow)[24] = deps.geocoder.offline(r[8], r[9]);
        return r as unknown as AddressedRouteRow;
      };
      return { devices, period, batches: mapped(routeRows(source), addressed) };
    },

    async events(q: z.output<typeof ReportEventsQuery>, scope: number | undefined, signal?: AbortSignal): Promise<Report<Event>> {
      const { period, devices, source } = await prepare(q, scope, signal);
      const batches = apiEvents(events({ ...source, types: eventTypesFilter(q.type), alarms: q.alarm }));
      return { devices, period, batches: mapped(batches, (e) => addressedEvent(deps.geocoder, e)) };
    },

    async trips(q: z.output<typeof ReportTripsQuery>, scope: number | undefined, signal?: AbortSignal): Promise<Report<ReportTrip>> {
      const { period, devices, byId, source } = await prepare(q, scope, signal);
      const runs = intervalItems(
        'trips',
        q,
        devices,
        source,
        (id, t) => tripsRun(byId.get(id)!, t),
        (id, iv, t) => tripItem(byId.get(id)!, iv, t),
      );
      return { devices, period, batches: addTripAddresses(nameDrivers(runs)) };
    },

    async stops(q: z.output<typeof ReportTripsQuery>, scope: number | undefined, signal?: AbortSignal): Promise<Report<ReportStop>> {
      const { period, devices, byId, source } = await prepare(q, scope, signal);
      const batches = intervalItems(
        'stops',
        q,
        devices,
        source,
        (id, t) => stopsRun(byId.get(id)!, t),
        (id, iv, t) => stopItem(byId.get(id)!, iv, t),
      );
      return { devices, period, batches: addStopAddresses(batches) };
    },

    async geofences(
      q: z.output<typeof ReportGeofencesQuery>,
      scope: number | undefined,
      signal?: AbortSignal,
    ): Promise<Report<ReportGeofence>> {
      const { period, devices, byId, source } = await prepare(q, scope, signal);
      const wanted = q.geofenceId?.length ? new Set(q.geofenceId) : undefined;
      const visits = perDevice(events({ ...source, types: ['geofenceEnter', 'geofenceExit'] }), (id) =>
        geofenceVisits(byId.get(id)!, wanted),
      );
      return { devices, period, batches: byStartTime(visits) };
    },

    async combined(
      q: z.output<typeof ReportCombinedQuery>,
      scope: number | undefined,
      signal?: AbortSignal,
    ): Promise<Report<CombinedReportItem>> {
      const { period, devices, source } = await prepare(q, scope, signal);
      return { devices, period, batches: combinedItems(devices, { tracks: tracks(source), events: events(source), positionsById }) };
    },

    async summary(q: z.output<typeof ReportSummaryQuery>, scope: number | undefined, signal?: AbortSignal): Promise<Report<ReportSummary>> {
      const { period, devices, byId, source } = await prepare(q, scope, signal);
      const boundaries = q.daily ? dayBoundaries(period.from.getTime(), period.to.getTime(), q.timezone) : [];
      const overrides = { ignoreOdometer: q.ignoreOdometer, speedThreshold: q.speedThreshold };
      const base = resolveThresholds(deps.settings.trips, {}, overrides).speedThreshold;
      const thresholds = new Map(devices.map((d) => [d.id, resolveThresholds(deps.settings.trips, d.attributes, overrides)]));
      const parts = summaryParts({
        ...source,
        boundaries,
        speedThreshold: base,
        radiusMetres: EARTH_RADIUS_M,
        maxSpeed: deps.settings.trips.maxSpeed,
        deviceSpeedThresholds: new Map(
          [...thresholds].filter(([, t]) => t.speedThreshold !== base).map(([id, t]) => [id, t.speedThreshold]),
        ),
      });
      const batches = perDevice(parts, (id) =>
        summaryRun(byId.get(id)!, { ignoreOdometer: thresholds.get(id)!.ignoreOdometer, maxSpeed: deps.settings.trips.maxSpeed }),
      );
      return { devices, period, batches };
    },
  };
}
export type ReportsService = ReturnType<typeof reportsService>;
