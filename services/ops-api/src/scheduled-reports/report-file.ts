import { buffer } from 'node:stream/consumers';
import {
  ReportEventsQuery,
  ReportRouteQuery,
  ReportSummaryQuery,
  ReportTripsQuery,
  XLSX_MEDIA_TYPE,
  type ScheduledReport,
} from '@corridor/contracts';
import { eventsTable } from '../reports/events';
import { csvStream } from '../reports/formats/csv';
import type { Presentation } from '../reports/formats/presentation';
import type { ReportTable } from '../reports/formats/table';
import { xlsxStream } from '../reports/formats/xlsx';
import { routeTable } from '../reports/route';
import type { Report, ReportsService } from '../reports/service';
import { stopsTable } from '../reports/stops';
import { summaryTable } from '../reports/summary';
import { tripsTable } from '../reports/trips';

export interface ReportFile {
  filename: string;
  contentType: string;
  content: Buffer;
  /** Rows in the file. */
  items: number;
}

const day = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const namesOf = (r: Report<unknown>): Map<number, string> => new Map(r.devices.map((d) => [d.id, d.name]));

/** Counts the items as they pass. */
function counted<T>(batches: AsyncIterable<T[]>, into: { items: number }): AsyncIterable<T[]> {
  return (async function* () {
    for await (const b of batches) {
      into.items += b.length;
      yield b;
    }
  })();
}

/** A report's rows as a file (csv or xlsx) in memory, named `<report>-<from day>-<to day>.<format>`, with its row count. */
export async function fileOf<T>(
  report: Report<T>,
  table: ReportTable<T>,
  format: 'csv' | 'xlsx',
  period: { from: number; to: number },
  presentation: Presentation,
): Promise<ReportFile> {
  const into = { items: 0 };
  const batches = counted(report.batches, into);
  const content = await buffer(format === 'csv' ? csvStream(table, batches, presentation) : xlsxStream(table, batches, presentation));
  return {
    filename: `${table.name}-${day(period.from)}-${day(period.to)}.${format}`,
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : XLSX_MEDIA_TYPE,
    content,
    items: into.items,
  };
}

/**
 * A scheduled report's file for one period, as the report endpoints would answer it (the same
 * service and tables) for the report's company (`scope`, undefined for a staff report).
 */
export async function reportFile(
  reports: ReportsService,
  r: ScheduledReport,
  period: { from: number; to: number },
  presentation: Presentation,
  signal?: AbortSignal,
): Promise<ReportFile> {
  const scope = r.companyId ?? undefined;
  const base = {
    deviceId: r.deviceIds,
    groupId: r.groupIds,
    from: new Date(period.from).toISOString(),
    to: new Date(period.to).toISOString(),
  };
  const file = <T>(report: Report<T>, table: ReportTable<T>): Promise<ReportFile> => fileOf(report, table, r.format, period, presentation);
  switch (r.type) {
    case 'route': {
      const report = await reports.route(ReportRouteQuery.parse(base), scope, signal);
      return file(report, routeTable(namesOf(report)));
    }
    case 'events': {
      const report = await reports.events(ReportEventsQuery.parse(base), scope, signal);
      return file(report, eventsTable(namesOf(report)));
    }
    case 'trips':
      return file(await reports.trips(ReportTripsQuery.parse(base), scope, signal), tripsTable);
    case 'stops':
      return file(await reports.stops(ReportTripsQuery.parse(base), scope, signal), stopsTable);
    case 'summary':
      return file(await reports.summary(ReportSummaryQuery.parse(base), scope, signal), summaryTable);
  }
}
