import type { FastifyReply } from 'fastify';
import { reportsEndpoints, type ReportFormat } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App } from '@corridor/platform';
import { eventsTable } from './events';
import { geofencesTable } from './geofences';
import { reportFormat } from './formats/negotiate';
import { sendReport } from './formats/send';
import type { ReportTable } from './formats/table';
import { routeTable } from './route';
import type { Report, ReportsService } from './service';
import { stopsTable } from './stops';
import { summaryTable } from './summary';
import { tripsTable } from './trips';

const [routeEndpoint, eventsEndpoint, summaryEndpoint, tripsEndpoint, stopsEndpoint, geofencesEndpoint, combinedEndpoint] = reportsEndpoints;

interface Asked {
  headers: { accept?: string };
  query: { format?: ReportFormat };
}

const day = (d: Date): string => d.toISOString().slice(0, 10);
const namesOf = (r: Report<unknown>): Map<number, string> => new Map(r.devices.map((d) => [d.id, d.name]));

/** Answers a report in the format asked for, as `<report>-<from day>-<to day>.<ext>` when it is a file. */
function send<T>(req: Asked, reply: FastifyReply, report: Report<T>, table: ReportTable<T>): Promise<FastifyReply> {
  return sendReport(reply, {
    format: reportFormat(req.query.format, req.headers.accept),
    table,
    batches: report.batches,
    filename: `${table.name}-${day(report.period.from)}-${day(report.period.to)}`,
  });
}

/** Aborts when the connection closes before the answer was sent in full (the client went away). */
function clientGone(reply: FastifyReply): AbortSignal {
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort(new Error('the client closed the connection'));
  });
  return gone.signal;
}

/** GET /api/reports/{route,events,summary,trips,stops,geofences}: JSON, CSV or xlsx, streamed; /reports/combined: JSON. */
export function reportRoutes(app: App, reports: ReportsService): void {
  registerEndpoint(app, routeEndpoint, async (req, reply) => {
    const r = await reports.route(req.query, companyScope(req.identity!), clientGone(reply));
    return send(req, reply, r, routeTable(namesOf(r)));
  });
  registerEndpoint(app, eventsEndpoint, async (req, reply) => {
    const r = await reports.events(req.query, companyScope(req.identity!), clientGone(reply));
    return send(req, reply, r, eventsTable(namesOf(r)));
  });
  registerEndpoint(app, summaryEndpoint, async (req, reply) =>
    send(req, reply, await reports.summary(req.query, companyScope(req.identity!), clientGone(reply)), summaryTable));
  registerEndpoint(app, tripsEndpoint, async (req, reply) =>
    send(req, reply, await reports.trips(req.query, companyScope(req.identity!), clientGone(reply)), tripsTable));
  registerEndpoint(app, stopsEndpoint, async (req, reply) =>
    send(req, reply, await reports.stops(req.query, companyScope(req.identity!), clientGone(reply)), stopsTable));
  registerEndpoint(app, geofencesEndpoint, async (req, reply) =>
    send(req, reply, await reports.geofences(req.query, companyScope(req.identity!), clientGone(reply)), geofencesTable));
  registerEndpoint(app, combinedEndpoint, async (req, reply) => {
    const r = await reports.combined(req.query, companyScope(req.identity!), clientGone(reply));
    return sendReport(reply, { format: 'json', table: { name: 'combined', columns: [] }, batches: r.batches, filename: 'combined' });
  });
}
