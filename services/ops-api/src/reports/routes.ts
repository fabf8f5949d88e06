import type { FastifyReply } from 'fastify';
import { reportsEndpoints, type ReportFormat } from '@corridor/contracts';
import { companyScope, registerEndpoint, type App, type Identity } from '@corridor/platform';
import { eventsTable } from './events';
import { geofencesTable } from './geofences';
import { reportFormat } from './formats/negotiate';
import type { ReportMailer } from './mail';
import { sendReport } from './formats/send';
import { DEFAULT_PRESENTATION, type Presentation } from './formats/presentation';
import type { ReportTable } from './formats/table';
import { routeTable } from './route';
import type { Report, ReportsService } from './service';
import { stopsTable } from './stops';
import { summaryTable } from './summary';
import { tripsTable } from './trips';

const [
  routeEndpoint,
  eventsEndpoint,
  summaryEndpoint,
  tripsEndpoint,
  stopsEndpoint,
  geofencesEndpoint,
  combinedEndpoint,
  routeMail,
  eventsMail,
  summaryMail,
  tripsMail,
  stopsMail,
  routeXlsx,
  eventsXlsx,
  summaryXlsx,
  tripsXlsx,
  stopsXlsx,
] = reportsEndpoints;

/** The request of a /reports/{type}/xlsx path: the report's query with format xlsx. */
const asXlsx = <R extends Asked>(req: R): R =>
  ({ identity: req.identity, headers: req.headers, query: { ...req.query, format: 'xlsx', mail: false } }) as R;

interface Asked {
  headers: { accept?: string };
  query: { format?: ReportFormat; mail?: boolean };
  identity?: Identity;
}

const day = (d: Date): string => d.toISOString().slice(0, 10);
const namesOf = (r: Report<unknown>): Map<number, string> => new Map(r.devices.map((d) => [d.id, d.name]));

type PresentationFor = (userId?: number) => Promise<Presentation>;

/**
 * Answers a report in the format asked for, as `<report>-<from day>-<to day>.<ext>` when it is a
 * file (in the caller's language, units and time zone); mail=true (or a /mail path) mails it.
 */
async function send<T>(
  req: Asked,
  reply: FastifyReply,
  report: Report<T>,
  table: ReportTable<T>,
  presentationFor: PresentationFor,
  mailer?: ReportMailer,
  mail = req.query.mail,
): Promise<FastifyReply> {
  if (mail) {
    if (!mailer) throw new Error('reports: no mailer');
    await mailer.queue(report, table, req.query.format, req.identity!);
    return reply.code(204).send();
  }
  const format = reportFormat(req.query.format, req.headers.accept);
  return sendReport(reply, {
    format,
    table,
    batches: report.batches,
    filename: `${table.name}-${day(report.period.from)}-${day(report.period.to)}`,
    presentation: await presentationFor(req.identity?.userId),
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

/**
 * GET /api/reports/{route,events,summary,trips,stops,geofences}: JSON, CSV or xlsx, streamed, or
 * mailed (mail=true); /reports/{route,events,summary,trips,stops}/mail: mailed; /reports/combined: JSON.
 */
/** The signal a report's reads stop on: the client going away, unless the report is mailed (read after the answer). */
const readFor = (req: Asked, reply: FastifyReply, mail?: boolean): AbortSignal | undefined =>
  (mail ?? req.query.mail) ? undefined : clientGone(reply);

export function reportRoutes(app: App, reports: ReportsService, presentationFor: PresentationFor, mailer?: ReportMailer): void {
  const route = async (req: Asked & { query: Parameters<ReportsService['route']>[0] }, reply: FastifyReply, mail?: boolean) => {
    const r = await reports.route(req.query, companyScope(req.identity!), readFor(req, reply, mail));
    return send(req, reply, r, routeTable(namesOf(r)), presentationFor, mailer, mail ?? req.query.mail);
  };
  const events = async (req: Asked & { query: Parameters<ReportsService['events']>[0] }, reply: FastifyReply, mail?: boolean) => {
    const r = await reports.events(req.query, companyScope(req.identity!), readFor(req, reply, mail));
    return send(req, reply, r, eventsTable(namesOf(r)), presentationFor, mailer, mail ?? req.query.mail);
  };
  const summary = async (req: Asked & { query: Parameters<ReportsService['summary']>[0] }, reply: FastifyReply, mail?: boolean) =>
    send(
      req,
      reply,
      await reports.summary(req.query, companyScope(req.identity!), readFor(req, reply, mail)),
      summaryTable,
      presentationFor,
      mailer,
      mail ?? req.query.mail,
    );
  const trips = async (req: Asked & { query: Parameters<ReportsService['trips']>[0] }, reply: FastifyReply, mail?: boolean) =>
    send(
      req,
      reply,
      await reports.trips(req.query, companyScope(req.identity!), readFor(req, reply, mail)),
      tripsTable,
      presentationFor,
      mailer,
      mail ?? req.query.mail,
    );
  const stops = async (req: Asked & { query: Parameters<ReportsService['stops']>[0] }, reply: FastifyReply, mail?: boolean) =>
    send(
      req,
      reply,
      await reports.stops(req.query, companyScope(req.identity!), readFor(req, reply, mail)),
      stopsTable,
      presentationFor,
      mailer,
      mail ?? req.query.mail,
    );

  registerEndpoint(app, routeEndpoint, (req, reply) => route(req, reply));
  registerEndpoint(app, routeMail, (req, reply) => route(req, reply, true));
  registerEndpoint(app, eventsEndpoint, (req, reply) => events(req, reply));
  registerEndpoint(app, eventsMail, (req, reply) => events(req, reply, true));
  registerEndpoint(app, summaryEndpoint, (req, reply) => summary(req, reply));
  registerEndpoint(app, summaryMail, (req, reply) => summary(req, reply, true));
  registerEndpoint(app, tripsEndpoint, (req, reply) => trips(req, reply));
  registerEndpoint(app, tripsMail, (req, reply) => trips(req, reply, true));
  registerEndpoint(app, stopsEndpoint, (req, reply) => stops(req, reply));
  registerEndpoint(app, stopsMail, (req, reply) => stops(req, reply, true));
  registerEndpoint(app, routeXlsx, (req, reply) => route(asXlsx(req), reply));
  registerEndpoint(app, eventsXlsx, (req, reply) => events(asXlsx(req), reply));
  registerEndpoint(app, summaryXlsx, (req, reply) => summary(asXlsx(req), reply));
  registerEndpoint(app, tripsXlsx, (req, reply) => trips(asXlsx(req), reply));
  registerEndpoint(app, stopsXlsx, (req, reply) => stops(asXlsx(req), reply));
  registerEndpoint(app, geofencesEndpoint, async (req, reply) =>
    send(
      req,
      reply,
      await reports.geofences(req.query, companyScope(req.identity!), readFor(req, reply)),
      geofencesTable,
      presentationFor,
      mailer,
    ),
  );
  registerEndpoint(app, combinedEndpoint, async (req, reply) => {
    const r = await reports.combined(req.query, companyScope(req.identity!), clientGone(reply));
    return sendReport(reply, {
      format: 'json',
      table: { name: 'combined', columns: [] },
      batches: r.batches,
      filename: 'combined',
      presentation: DEFAULT_PRESENTATION,
    });
  });
}
