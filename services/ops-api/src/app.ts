import { join } from 'node:path';
import { endpointsOf } from '@corridor/contracts';
import { createApp, createGeocoder, GeocoderEnv, requireAnalyticsSchema, type Adapters, type App, type Geocoder, type InternalKeys, type Logger } from '@corridor/platform';
import { busReadiness, packageDir, scopeBus } from '@corridor/platform';
import { devicesRepository } from './devices/repository';
import { devicesService, type DevicesService } from './devices/service';
import { deviceRoutes } from './devices/routes';
import { liveLatestOf } from './positions/delete';
import { positionExporter, positionExportRoutes } from './positions/export-routes';
import { positionQueryRoutes } from './positions/routes';
import multipart from '@fastify/multipart';
import { companiesRepository } from './companies/repository';
import { companyRoutes } from './companies/routes';
import { documentsRepository } from './documents/repository';
import { documentsService, type DocumentsService } from './documents/service';
import { documentRoutes } from './documents/routes';
import { defaultDocumentsSettings, type DocumentsSettings } from './documents/settings';
import type { IdfReaders } from './cargo/idf-reader';
import { ParserPool } from './parsers/parser-pool';
import { defaultParserSettings, type ParserSettings } from './parsers/settings';
import { shipmentsRepository } from './shipments/repository';
import { shipmentsService } from './shipments/service';
import { shipmentRoutes } from './shipments/routes';
import { cargoRepository } from './cargo/repository';
import { cargoService } from './cargo/service';
import { cargoRoutes } from './cargo/routes';
import { notificationsRepository } from './notifications/repository';
import { notificationsService } from './notifications/service';
import { notificationRoutes } from './notifications/routes';
import { complaintsRepository } from './complaints/repository';
import { complaintsService } from './complaints/service';
import { complaintRoutes } from './complaints/routes';
import { disciplinaryRepository } from './disciplinary/repository';
import { disciplinaryService } from './disciplinary/service';
import { disciplinaryRoutes } from './disciplinary/routes';
import { ratingsRepository } from './ratings/repository';
import { ratingsService } from './ratings/service';
import { ratingRoutes } from './ratings/routes';
import { startFlagConsumer } from './ratings/flag-consumer';
import type { Subscription } from '@corridor/platform';
import { certificatesRepository } from './certificates/repository';
import { certificatesService } from './certificates/service';
import { certificateRoutes } from './certificates/routes';
import { defaultCertificateSettings, type CertificateSettings } from './certificates/settings';
import { dashboardRepository } from './dashboards/repository';
import { dashboardService } from './dashboards/service';
import { dashboardRoutes } from './dashboards/routes';
import { eventFigures } from './dashboards/event-figures';
import { observatory } from './observatory';
import { reportRoutes } from './reports/routes';
import { devicesReportRoutes } from './reports/devices-report';
import { deviceImageRoutes } from './devices/image-routes';
import { latestPositions } from './devices/latest-positions';
import { reportsService } from './reports/service';
import { defaultReportSettings, type ReportSettings } from './reports/settings';
import { trackingModules, type TrackingModules } from './resources/tracking-modules';
import { DEFAULT_EMAIL_VERIFY_URL, defaultNotificationSettings, type NotificationSettings } from './notification-rules/settings';
import { mailChannel } from './notification-rules/mail-channel';
import { emailVerification } from './notifications/email-verification';
import { auditRoutes } from './audit/routes';
import { deviceStateService, type DeviceStateService } from './device-state/service';
import { defaultDeviceStateSettings, type DeviceStateSettings } from './device-state/settings';
import { eventSettingsReader } from './device-state/event-settings';
import { SpeedLimitFences } from './device-state/speed-limit-fences';
import { deviceEventWriter } from './events/event-writer';
import { opsReferenceChecks } from './resources/references';

export interface OpsApiDeps extends Omit<Adapters, 'close'> {
  logger: Logger;
  /** INTERNAL_TOKEN_SECRET (and _PREVIOUS during a rotation, see internalKeys): verifies the gateway's identity header. */
  identitySecret: InternalKeys;
  /** Document storage, size limit and virus scanner (documentsSettingsFrom(config)); default: .data/documents, 10 MiB, no scanner. */
  documents?: DocumentsSettings;
  /** Reads uploaded documents (PDF text, IDF exports); default: the parser processes (src/parsers) with `parsers`' limits. */
  readers?: IdfReaders;
  /** DOCUMENT_PARSERS, DOCUMENT_PARSE_* and DOCUMENT_INFLATED_MB (parserSettingsFrom(config)); default: their defaults. */
  parsers?: ParserSettings;
  /** COMPLAINT_REOPEN_DAYS: how long after a decision a complaint may be reopened (default 14). */
  complaintReopenDays?: number;
  /** Certificate fees per country, validity days and CERTIFICATE_VERIFY_URL (defaults: certificates/settings.ts). */
  certificates?: Partial<CertificateSettings>;
  /** Report period limit and trip thresholds (reportSettingsFrom(config)); default: Traccar's defaults, 92 days. */
  reports?: ReportSettings;
  /** REPORT_SCHEDULE_CHECK_S × 1000: how often due scheduled reports are looked for; unset = not by themselves (tests call tracking.scheduledReports.check). */
  reportScheduleCheckMs?: number;
  /** NOTICE_DELIVERY_CHECK_MS: how often committed inbox notices are mailed and POSTed to their addressees; unset = not by themselves (tests call tracking.notices.check). */
  noticeDeliveryCheckMs?: number;
  /** REPORT_RUN_LEASE_S × 1000: a scheduled report run still running after this is taken again (default 15 minutes). */
  reportRunLeaseMs?: number;
  /** Notification-rule channels: SMTP_URL, SMTP_FROM, webhook retries (notificationSettingsFrom(config)); default: no mail. */
  notificationRules?: NotificationSettings;
  /** Device status timeout and write throttle (deviceStateSettingsFrom(config)); default: Traccar's 600 s, 60 s. */
  deviceState?: DeviceStateSettings;
  /** JOURNEY_URL: the journey service, which checks the journey and route ids ops-api requests carry (unset: such ids answer 503). */
  journeyUrl?: string | (() => string | undefined);
  /** GEOFENCE_URL: the geofence service, which checks the geofence ids ops-api requests carry (reports, exports; unset: such ids answer 503). */
  geofenceUrl?: string | (() => string | undefined);
  /** Addresses of positions, events and reports (createGeocoder(config)); default: offline. */
  geocoder?: Geocoder;
}

export interface OpsApiService {
  app: App;
  devices: DevicesService;
  /** Device status, lastUpdate and positionId (consumers of positions.v1 and device-status.v1, the timeout sweep). */
  deviceState: DeviceStateService;
  /** The geofences with a speedLimit (from geofences.v1), for the overspeed events. */
  speedLimitFences: SpeedLimitFences;
  /** The shared document store (uploads, generated PDFs). */
  documents: DocumentsService;
  /** Tracking resources (issue 8); exposes the notification-rule dispatcher. */
  tracking: TrackingModules;
  start(): Promise<void>;
  close(): Promise<void>;
}

export const opsApiEndpoints = endpointsOf('ops-api');
export const migrationsFolder = join(packageDir(import.meta.url), 'drizzle');

/** Builds ops-api: migrations, the domain modules and their routes. */
export async function build(deps: OpsApiDeps): Promise<OpsApiService> {
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  deps = { ...deps, bus };
  await requireAnalyticsSchema(deps.analytics, deps.logger);
  await deps.db.migrate(migrationsFolder, 'ops-api');
  const app = createApp({
    metrics: false, // on a port of its own (METRICS_PORT, runService in main.ts)
    name: 'ops-api',
    logger: deps.logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping(), bus: busReadiness(bus) },
  });
  const repo = devicesRepository(deps.db.orm);
  const devices = devicesService({ db: deps.db.orm, repo, bus: deps.bus, cache: deps.cache, logger: deps.logger.child({ module: 'devices' }) });
  deviceRoutes(app, devices);
  const writeEvents = deviceEventWriter({ analytics: deps.analytics, bus: deps.bus });
  const deviceStateSettings = deps.deviceState ?? defaultDeviceStateSettings();
  const speedLimitFences = new SpeedLimitFences({ bus: deps.bus, logger: deps.logger.child({ module: 'speed-limit-fences' }) });
  const deviceState = deviceStateService({
    db: deps.db.orm, bus: deps.bus, cache: deps.cache, clock: deps.clock, logger: deps.logger.child({ module: 'device-state' }),
    write: writeEvents, settings: deviceStateSettings, registryEntries: (states) => devices.registryEntries(states),
    onSessions: (ms) => devices.bindProtocols(ms),
    eventConfigs: eventSettingsReader({
      db: deps.db.orm, cache: deps.cache, logger: deps.logger.child({ module: 'event-settings' }),
      trips: (deps.reports ?? defaultReportSettings()).trips, overspeedMinimalDuration: deviceStateSettings.overspeedMinimalDurationMs,
      reloadMs: deviceStateSettings.settingsReloadMs, fences: speedLimitFences,
    }),
  });
  const reportSettings = deps.reports ?? defaultReportSettings();
  const geocoder = deps.geocoder ?? createGeocoder(GeocoderEnv.parse({}));
  const positionDeps = {
    analytics: deps.analytics, cache: deps.cache, db: deps.db.orm, devices: repo, reports: reportSettings, liveLatest: liveLatestOf(deviceState), geocoder,
  };
  const exporter = positionExporter(positionDeps);
  positionQueryRoutes(app, { ...positionDeps, exporter });
  positionExportRoutes(app, positionDeps, exporter);
  const reports = reportsService({ analytics: deps.analytics, db: deps.db.orm, devices: repo, settings: reportSettings, geocoder });
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
  deviceImageRoutes(app, { db: deps.db.orm, devices, storage: docSettings.storage });
  const parsers = deps.readers ? undefined : new ParserPool(deps.parsers ?? defaultParserSettings(), deps.logger.child({ module: 'parsers' }));
  const readers: IdfReaders = deps.readers ?? {
    pdf: { ready: async () => undefined, read: (bytes) => parsers!.run('pdfText', bytes) },
    idfExport: (format, bytes) => parsers!.run('idfExport', { format, bytes }),
  };
  const cargo = cargoService({ db: deps.db.orm, repo: cargoRepository(deps.db.orm), documents, readers, logger: deps.logger.child({ module: 'cargo' }) });
  cargoRoutes(app, cargo, { documents });
  const shipments = shipmentsService({
    db: deps.db.orm, repo: shipmentsRepository(deps.db.orm), documents, cargoOf: cargo.idsOf, logger: deps.logger.child({ module: 'shipments' }),
  });
  shipmentRoutes(app, shipments, { documents, pdf: readers.pdf });
  const ruleSettings = { ...defaultNotificationSettings(), ...deps.notificationRules };
  const mail = ruleSettings.smtpUrl ? mailChannel(ruleSettings.smtpUrl, ruleSettings.mailFrom) : undefined;
  const notifications = notificationsService({
    repo: notificationsRepository(deps.db.orm), clock: deps.clock, webhookPolicy: ruleSettings.webhookPolicy, mailEnabled: !!mail,
    emailVerification: mail && emailVerification({ mail, cache: deps.cache, url: ruleSettings.emailVerifyUrl ?? DEFAULT_EMAIL_VERIFY_URL, logger: deps.logger.child({ module: 'notifications' }), now: () => deps.clock.now() }),
  });
  notificationRoutes(app, notifications);
  const complaintsRepo = complaintsRepository(deps.db.orm);
  complaintRoutes(app, complaintsService({
    db: deps.db.orm, repo: complaintsRepo, notifications, clock: deps.clock, reopenDays: deps.complaintReopenDays ?? 14,
    companyExists: (id) => companiesRepo.exists(id), deviceCompany: async (id) => (await repo.get(id))?.companyId,
  }));
  disciplinaryRoutes(app, disciplinaryService({
    db: deps.db.orm, repo: disciplinaryRepository(deps.db.orm), complaints: complaintsRepo, notifications, clock: deps.clock,
    companyExists: (id) => companiesRepo.exists(id), companyName: async (id) => (await companiesRepo.get(id))?.name,
  }));
  ratingRoutes(app, ratingsService({ repo: ratingsRepository(deps.db.orm), clock: deps.clock }));
  certificateRoutes(app, certificatesService({
    db: deps.db.orm, repo: certificatesRepository(deps.db.orm), companies: companiesRepo, documents, notifications, clock: deps.clock,
    settings: { ...defaultCertificateSettings, ...deps.certificates }, logger: deps.logger.child({ module: 'certificates' }),
  }));
  auditRoutes(app, deps.db.orm);
  dashboardRoutes(app, dashboardService({ repo: dashboardRepository(deps.db.orm), events: eventFigures(deps.analytics), clock: deps.clock }));
  observatory(app, { db: deps.db.orm, analytics: deps.analytics, cache: deps.cache, clock: deps.clock });
  const tracking = trackingModules(app, {
    db: deps.db.orm, bus: deps.bus, cache: deps.cache, analytics: deps.analytics, logger: deps.logger,
    devicesRepo: repo, devices, notifications: ruleSettings, mail, inbox: notifications, reports, reportScheduleCheckMs: deps.reportScheduleCheckMs, reportRunLeaseMs: deps.reportRunLeaseMs,
    noticeDeliveryCheckMs: deps.noticeDeliveryCheckMs, geofenceName: (id) => speedLimitFences.nameOf(id), geocoder,
  });
  reportRoutes(app, reports, tracking.presentationFor, tracking.reportMailer);
  devicesReportRoutes(app, { devices, latest: latestPositions({ cache: deps.cache, analytics: deps.analytics }), presentationFor: tracking.presentationFor });
  const { journeyUrl, geofenceUrl } = deps;
  opsReferenceChecks(app, {
    db: deps.db.orm, cache: deps.cache, analytics: deps.analytics, identitySecret: deps.identitySecret,
    journeyUrl: typeof journeyUrl === 'function' ? journeyUrl : () => journeyUrl,
    geofenceUrl: typeof geofenceUrl === 'function' ? geofenceUrl : () => geofenceUrl,
    notificationVisible: (who, id) => notifications.isVisible(who, id),
  });
  let flagConsumer: Subscription | undefined;
  return {
    app,
    devices,
    deviceState,
    speedLimitFences,
    documents,
    tracking,
    async start() {
      const n = await devices.syncRegistry();
      deps.logger.info({ devices: n }, 'device registry published');
      flagConsumer = await startFlagConsumer({ bus: deps.bus, db: deps.db.orm, logger: deps.logger });
      await tracking.start();
      await speedLimitFences.start();
      await deviceState.start();
    },
    async close() {
      await deviceState.stop();
      await speedLimitFences.stop();
      await flagConsumer?.stop();
      await tracking.close();
      await app.close();
      await parsers?.close();
    },
  };
}
