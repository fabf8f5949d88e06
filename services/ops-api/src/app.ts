import { join } from 'node:path';
import multipart from '@fastify/multipart';
import { endpointsOf } from '@corridor/contracts';
import {
  busReadiness,
  createApp,
  createGeocoder,
  GeocoderEnv,
  packageDir,
  requireAnalyticsSchema,
  scopeBus,
  type Adapters,
  type App,
  type Geocoder,
  type InternalKeys,
  type Logger,
} from '@corridor/platform';
import { auditModule } from './audit';
import { calendarsModule } from './calendars';
import { cargoModule } from './cargo';
import type { IdfReaders } from './cargo/idf-reader';
import { certificatesModule } from './certificates';
import type { CertificateSettings } from './certificates/settings';
import { commandsModule } from './commands';
import { companiesModule } from './companies';
import { complaintsModule } from './complaints';
import { computedAttributesModule } from './computed-attributes';
import { configurationsModule } from './configurations';
import { dashboardsModule } from './dashboards';
import { deviceModelsModule } from './device-models';
import { deviceStateModule } from './device-state';
import type { DeviceStateService } from './device-state/service';
import type { DeviceStateSettings } from './device-state/settings';
import type { SpeedLimitFences } from './device-state/speed-limit-fences';
import { devicesModule } from './devices';
import type { DevicesService } from './devices/service';
import { disciplinaryModule } from './disciplinary';
import { documentsModule } from './documents';
import type { DocumentsService } from './documents/service';
import { defaultDocumentsSettings, type DocumentsSettings } from './documents/settings';
import { draftsModule } from './drafts';
import { driversModule } from './drivers';
import { eventsModule } from './events';
import { groupsModule } from './groups';
import { inventoriesModule } from './inventories';
import { maintenanceModule } from './maintenance';
import { opsModules } from './module';
import { notificationRulesModule } from './notification-rules';
import type { NotificationDispatcher } from './notification-rules/dispatcher';
import { defaultNotificationSettings, type NotificationSettings } from './notification-rules/settings';
import { notificationsModule } from './notifications';
import type { NoticeDelivery } from './notifications/delivery';
import { objectLinksModule } from './object-links';
import { observatoryModule } from './observatory';
import { ordersModule } from './orders';
import { parsersModule } from './parsers';
import type { ParserSettings } from './parsers/settings';
import { positionsModule } from './positions';
import { ratingsModule } from './ratings';
import { opsReferenceChecks } from './reference-checks';
import { reportsModule } from './reports';
import { defaultReportSettings, type ReportSettings } from './reports/settings';
import { scheduledReportsModule } from './scheduled-reports';
import type { ScheduledReportRunner } from './scheduled-reports/runner';
import { shipmentsModule } from './shipments';
import { statisticsModule } from './statistics';
import { trackingUnitsModule } from './tracking-units';
import { truckOwnersModule } from './truck-owners';

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
  /** The background work of the tracking resources that tests drive by hand. */
  tracking: {
    /** The notification rules' dispatcher. */
    dispatcher: NotificationDispatcher;
    /** Runs scheduled reports on their calendars. */
    scheduledReports: ScheduledReportRunner;
    /** Delivers committed inbox notices by mail and webhook. */
    notices: NoticeDelivery;
  };
  start(): Promise<void>;
  close(): Promise<void>;
}

export const opsApiEndpoints = endpointsOf('ops-api');
export const migrationsFolder = join(packageDir(import.meta.url), 'drizzle');

/**
 * Builds ops-api: migrations, then its modules, each a fastify plugin that builds its services and
 * registers its routes (src/module.ts), listed here once in the order they depend on each other.
 */
export async function build(deps: OpsApiDeps): Promise<OpsApiService> {
  const bus = scopeBus(deps.bus); // its consumers are the ones /readyz watches
  await requireAnalyticsSchema(deps.analytics, deps.logger);
  await deps.db.migrate(migrationsFolder, 'ops-api');
  const app = createApp({
    metrics: false, // on a port of its own (METRICS_PORT, runService in main.ts)
    name: 'ops-api',
    logger: deps.logger,
    identitySecret: deps.identitySecret,
    readiness: { db: () => deps.db.ping(), analytics: () => deps.analytics.ping(), cache: () => deps.cache.ping(), bus: busReadiness(bus) },
  });
  const base = { db: deps.db.orm, bus, cache: deps.cache, analytics: deps.analytics, clock: deps.clock, logger: deps.logger };
  const reportSettings = deps.reports ?? defaultReportSettings();
  const documentSettings = deps.documents ?? defaultDocumentsSettings();
  const notificationSettings = { ...defaultNotificationSettings(), ...deps.notificationRules };
  const geocoder = deps.geocoder ?? createGeocoder(GeocoderEnv.parse({}));
  await app.register(multipart, { limits: { fileSize: documentSettings.maxBytes, files: 1 } });

  const modules = opsModules(app, base);
  const companies = await modules.register(companiesModule);
  const documents = await modules.register(documentsModule, { settings: documentSettings, linkSecret: deps.identitySecret, companies });
  const readers = await modules.register(parsersModule, { readers: deps.readers, settings: deps.parsers });
  const devices = await modules.register(devicesModule, { imageStorage: documentSettings.storage });
  const { deviceState, speedLimitFences } = await modules.register(deviceStateModule, {
    devices: devices.service,
    settings: deps.deviceState,
    trips: reportSettings.trips,
  });
  await modules.register(positionsModule, { devices: devices.repo, deviceState, reports: reportSettings, geocoder });
  const cargo = await modules.register(cargoModule, { documents, readers });
  await modules.register(shipmentsModule, { documents, readers, cargo });
  const { inbox, mail } = await modules.register(notificationsModule, { settings: notificationSettings });
  const complaints = await modules.register(complaintsModule, {
    companies,
    devices: devices.repo,
    inbox,
    reopenDays: deps.complaintReopenDays,
  });
  await modules.register(disciplinaryModule, { companies, complaints, inbox });
  await modules.register(ratingsModule);
  await modules.register(certificatesModule, { companies, documents, inbox, settings: deps.certificates });
  await modules.register(auditModule);
  await modules.register(dashboardsModule);
  await modules.register(observatoryModule);
  const reports = await modules.register(reportsModule, { devices, settings: reportSettings, geocoder, mail, inbox });
  await modules.register(groupsModule);
  await modules.register(driversModule);
  await modules.register(calendarsModule);
  await modules.register(ordersModule);
  await modules.register(deviceModelsModule);
  await modules.register(configurationsModule);
  await modules.register(draftsModule);
  await modules.register(trackingUnitsModule);
  const truckOwners = await modules.register(truckOwnersModule);
  await modules.register(inventoriesModule, { devices, truckOwners });
  const maintenance = await modules.register(maintenanceModule, { devices });
  const computed = await modules.register(computedAttributesModule, { devices });
  const commands = await modules.register(commandsModule, { devices });
  await modules.register(objectLinksModule, { computed, maintenance });
  await modules.register(statisticsModule);
  await modules.register(eventsModule, { devices: devices.repo, geocoder });
  const { dispatcher, notices } = await modules.register(notificationRulesModule, {
    settings: notificationSettings,
    mail,
    inbox,
    commands,
    geofenceName: (id) => speedLimitFences.nameOf(id),
    noticeDeliveryCheckMs: deps.noticeDeliveryCheckMs,
  });
  const scheduledReports = await modules.register(scheduledReportsModule, {
    reports,
    mail,
    checkMs: deps.reportScheduleCheckMs,
    leaseMs: deps.reportRunLeaseMs,
  });

  const { journeyUrl, geofenceUrl } = deps;
  opsReferenceChecks(app, {
    db: deps.db.orm,
    cache: deps.cache,
    analytics: deps.analytics,
    identitySecret: deps.identitySecret,
    journeyUrl: typeof journeyUrl === 'function' ? journeyUrl : () => journeyUrl,
    geofenceUrl: typeof geofenceUrl === 'function' ? geofenceUrl : () => geofenceUrl,
    notificationVisible: (who, id) => inbox.isVisible(who, id),
  });
  return {
    app,
    devices: devices.service,
    deviceState,
    speedLimitFences,
    documents,
    tracking: { dispatcher, scheduledReports, notices },
    start: modules.start,
    close: modules.close,
  };
}
