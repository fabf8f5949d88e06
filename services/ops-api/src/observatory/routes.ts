import type { FastifyReply } from 'fastify';
import { observatoryEndpoints, type ObservatoryInterval, type ReportFormat, type ReportLanguage } from '@corridor/contracts';
import { registerEndpoint, type App, type Identity } from '@corridor/platform';
import { reportFormat } from '../reports/formats/negotiate';
import type { Presentation } from '../reports/formats/presentation';
import { sendReport } from '../reports/formats/send';
import type { ReportTable } from '../reports/formats/table';
import { dwellTable, stopsTable, transitTable } from './files';
import { openDataCsv, type openData } from './open-data';
import type { ObservatoryService } from './service';
import type { ObservatorySettingsStore } from './settings';

const [transitEndpoint, dwellEndpoint, stopsEndpoint, mapEndpoint, settingsEndpoint, updateSettingsEndpoint, openDataEndpoint] =
  observatoryEndpoints;

export interface ObservatoryRouteDeps {
  service: ObservatoryService;
  settings: ObservatorySettingsStore;
  openData: ReturnType<typeof openData>;
  presentationFor(userId?: number): Promise<Presentation>;
  companyName(id: number): Promise<string | null>;
}

/** `transit-times-2026-01-05-2026-03-30` (the period's first and last day). */
const fileName = (stem: string, period: { from: string; to: string }): string =>
  `${stem}-${period.from.slice(0, 10)}-${new Date(Date.parse(period.to) - 1).toISOString().slice(0, 10)}`;

/**
 * The observatory's endpoints: JSON reports, or their items as a CSV or xlsx file in the reader's
 * language and units through the reports' writers; the settings; the public open data.
 */
export function observatoryRoutes(app: App, deps: ObservatoryRouteDeps): void {
  async function answer<T, R extends { period: { from: string; to: string }; companyId: number | null; items: T[] }>(
    req: { headers: { accept?: string }; query: { format?: ReportFormat }; identity?: Identity },
    reply: FastifyReply,
    report: R,
    table: (lang: ReportLanguage, companyName: string | null) => ReportTable<T>,
  ) {
    const format = reportFormat(req.query.format, req.headers.accept);
    if (format === 'json') return report;
    const presentation = await deps.presentationFor(req.identity?.userId);
    const t = table(presentation.language, report.companyId === null ? null : await deps.companyName(report.companyId));
    return sendReport(reply, {
      format,
      table: t,
      batches: (async function* () {
        yield report.items;
      })(),
      filename: fileName(t.name, report.period),
      presentation,
    });
  }

  registerEndpoint(app, transitEndpoint, async (req, reply) =>
    answer(req, reply, await deps.service.transit(req.query, req.identity!), transitTable),
  );
  registerEndpoint(app, dwellEndpoint, async (req, reply) =>
    answer(req, reply, await deps.service.dwell(req.query, req.identity!), dwellTable),
  );
  registerEndpoint(app, stopsEndpoint, async (req, reply) =>
    answer(req, reply, await deps.service.stops(req.query, req.identity!), stopsTable),
  );
  registerEndpoint(app, mapEndpoint, async (req) => deps.service.overview(req.query, req.identity!));
  registerEndpoint(app, settingsEndpoint, async () => deps.settings.get());
  registerEndpoint(app, updateSettingsEndpoint, async (req) => deps.settings.set(req.body, req.identity!));
  registerEndpoint(app, openDataEndpoint, async (req, reply) => {
    const data = await deps.openData(req.query as { interval: ObservatoryInterval; from?: string; to?: string });
    reply.header('cache-control', 'public, max-age=3600');
    if (req.query.format === 'json') return data;
    reply.header('content-disposition', `attachment; filename="corridor-observatory-${data.interval}-v${data.schemaVersion}.csv"`);
    return reply.type('text/csv; charset=utf-8').send(openDataCsv(data));
  });
}
