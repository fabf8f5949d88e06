import { fileURLToPath } from 'node:url';
import { endpointsOf } from '@corridor/contracts';
import { createApp, ensureEventsTable, ensurePositionsTable, type Adapters, type App, type Logger } from '@corridor/platform';
import { devicesRepository } from './devices/repository';
import { devicesService, type DevicesService } from './devices/service';
import { deviceRoutes } from './devices/routes';
import { positionQueryRoutes } from './positions/routes';
import multipart from '@fastify/multipart';
import { companiesRepository } from './companies/repository';
import { companyRoutes } from './companies/routes';
import { documentsRepository } from './documents/repository';
import { documentsService, type DocumentsService } from './documents/service';
import { documentRoutes } from './documents/routes';
import { defaultDocumentsSettings, type DocumentsSettings } from './documents/settings';

export interface OpsApiDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET: verifies the gateway's identity header. */
  identitySecret: string;
  /** Document storage, size limit and virus scanner (documentsSettingsFrom(config)); default: .data/documents, 10 MiB, no scanner. */
  documents?: DocumentsSettings;
}

export interface OpsApiService {
  app: App;
  devices: DevicesService;
  /** The shared document store (uploads, generated PDFs). */
  documents: DocumentsService;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const opsApiEndpoints = endpointsOf('ops-api');
export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url));

/** Builds ops-api: migrations, the domain modules and their routes. */
export async function build(deps: OpsApiDeps): Promise<OpsApiService> {
  await deps.db.migrate(migrationsFolder, 'ops-api');
  await ensurePositionsTable(deps.analytics);
  await ensureEventsTable(deps.analytics);
  const app = createApp({
    name: 'ops-api',
    logger: deps.logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping(), bus: () => deps.bus.ping() },
  });
  const repo = devicesRepository(deps.db.orm);
  const devices = devicesService({ repo, bus: deps.bus, cache: deps.cache, logger: deps.logger.child({ module: 'devices' }) });
  deviceRoutes(app, devices);
  positionQueryRoutes(app, { analytics: deps.analytics, cache: deps.cache, devices: repo });
  const docSettings = deps.documents ?? defaultDocumentsSettings();
  await app.register(multipart, { limits: { fileSize: docSettings.maxBytes, files: 1 } });
  const companiesRepo = companiesRepository(deps.db.orm);
  await companiesRepo.seedIfEmpty();
  companyRoutes(app, companiesRepo);
  const documents = documentsService({
    ...docSettings, repo: documentsRepository(deps.db.orm), linkSecret: deps.identitySecret,
    companyExists: (id) => companiesRepo.exists(id), logger: deps.logger.child({ module: 'documents' }),
  });
  documentRoutes(app, documents);
  return {
    app,
    devices,
    documents,
    async start() {
      const n = await devices.syncRegistry();
      deps.logger.info({ devices: n }, 'device registry published');
    },
    async close() {
      await app.close();
    },
  };
}
