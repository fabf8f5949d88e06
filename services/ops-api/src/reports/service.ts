import type { z } from 'zod';
import type {
  EventMessage, PositionMessage, ReportEventsQuery, ReportRouteQuery, ReportStop, ReportSummary, ReportSummaryQuery,
  ReportTrip, ReportTripsQuery,
} from '@corridor/contracts';
import type { Analytics, Orm } from '@corridor/platform';
import { streamPositions, streamReportFixes } from '@corridor/platform/clickhouse/report-positions';
import { streamEvents } from '@corridor/platform/clickhouse/report-events';
import type { DevicesRepository } from '../devices/repository';
import { dayBoundaries } from './calendar-days';
import { perDevice } from './device-runs';
import { driverNamer } from './driver-names';
import { eventTypesFilter } from './events';
import { reportPeriod, type Period } from './period';
import { reportDevices, type ReportDevice } from './report-devices';
import type { ReportSettings } from './settings';
import { stopsRun } from './stops';
import { summaryRun } from './summary';
import { resolveThresholds } from './thresholds';
import { tripsRun } from './trips';

export interface ReportsDeps {
  analytics: Analytics;
  db: Orm;
  devices: DevicesRepository;
  settings: ReportSettings;
  /** Rows per analytics query (tests use small pages to cross page boundaries); default per store. */
  pageRows?: number;
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
 * (so a refusal is a clean 4xx), then streams: positions are read in order and folded per device,
 * never held for the whole period.
 */
export function reportsService(deps: ReportsDeps) {
  const resolveDevices = reportDevices(deps.db, deps.devices);
  const fixes = streamReportFixes(deps.analytics);
  const positions = streamPositions(deps.analytics);
  const events = streamEvents(deps.analytics);
  const nameDrivers = driverNamer(deps.db);

  async function prepare(q: Base, scope: number | undefined) {
    const period = reportPeriod(q, deps.settings.maxPeriodDays);
    const devices = await resolveDevices(q, scope);
    const byId = new Map(devices.map((d) => [d.id, d]));
    const source = { deviceIds: devices.map((d) => d.id), ...period, pageRows: deps.pageRows };
    return { period, devices, byId, source };
  }

  return {
    async route(q: z.output<typeof ReportRouteQuery>, scope: number | undefined): Promise<Report<PositionMessage>> {
      const { period, devices, source } = await prepare(q, scope);
      return { devices, period, batches: positions(source) };
    },

    async events(q: z.output<typeof ReportEventsQuery>, scope: number | undefined): Promise<Report<EventMessage>> {
      const { period, devices, source } = await prepare(q, scope);
      return { devices, period, batches: events({ ...source, types: eventTypesFilter(q.type), alarms: q.alarm }) };
    },

    async trips(q: z.output<typeof ReportTripsQuery>, scope: number | undefined): Promise<Report<ReportTrip>> {
      const { period, devices, byId, source } = await prepare(q, scope);
      const runs = perDevice(fixes(source), (id) => {
        const device = byId.get(id)!;
        return tripsRun(device, resolveThresholds(deps.settings.trips, device.attributes, q));
      });
      return { devices, period, batches: nameDrivers(runs) };
    },

    async stops(q: z.output<typeof ReportTripsQuery>, scope: number | undefined): Promise<Report<ReportStop>> {
      const { period, devices, byId, source } = await prepare(q, scope);
      const batches = perDevice(fixes(source), (id) => {
        const device = byId.get(id)!;
        return stopsRun(device, resolveThresholds(deps.settings.trips, device.attributes, q));
      });
      return { devices, period, batches };
    },

    async summary(q: z.output<typeof ReportSummaryQuery>, scope: number | undefined): Promise<Report<ReportSummary>> {
      const { period, devices, byId, source } = await prepare(q, scope);
      const boundaries = q.daily ? dayBoundaries(period.from.getTime(), period.to.getTime(), q.timezone) : [];
      const batches = perDevice(fixes(source), (id) => {
        const device = byId.get(id)!;
        const t = resolveThresholds(deps.settings.trips, device.attributes, { ignoreOdometer: q.ignoreOdometer, speedThreshold: q.speedThreshold });
        return summaryRun(device, { ignoreOdometer: t.ignoreOdometer, speedThreshold: t.speedThreshold, boundaries });
      });
      return { devices, period, batches };
    },
  };
}
export type ReportsService = ReturnType<typeof reportsService>;
