import type { Notificator } from '@corridor/contracts';
import type { Analytics, App, Bus, Cache, Geocoder, Logger, Orm, Subscription } from '@corridor/platform';
import { accumulatorsService } from '../devices/accumulators';
import { deviceConfigurationService } from '../devices/configuration';
import { deviceExtraRoutes } from '../devices/extra-routes';
import { latestPositions } from '../devices/latest-positions';
import type { DevicesRepository } from '../devices/repository';
import type { DevicesService } from '../devices/service';
import { groupsService } from '../groups/service';
import { groupRoutes } from '../groups/routes';
import { driversService } from '../drivers/service';
import { driverRoutes } from '../drivers/routes';
import { calendarsService } from '../calendars/service';
import { calendarRoutes } from '../calendars/routes';
import { ordersService } from '../orders/service';
import { orderRoutes } from '../orders/routes';
import { deviceModelsService } from '../device-models/service';
import { deviceModelRoutes } from '../device-models/routes';
import { configurationsService } from '../configurations/service';
import { configurationRoutes } from '../configurations/routes';
import { draftsService } from '../drafts/service';
import { draftRoutes } from '../drafts/routes';
import { trackingUnitsService } from '../tracking-units/service';
import { trackingUnitRoutes } from '../tracking-units/routes';
import { truckOwnersRepository } from '../truck-owners/repository';
import { truckOwnersService } from '../truck-owners/service';
import { truckOwnerRoutes } from '../truck-owners/routes';
import { inventoriesService } from '../inventories/service';
import { inventoryRoutes } from '../inventories/routes';
import { maintenanceService } from '../maintenance/service';
import { maintenanceRoutes } from '../maintenance/routes';
import { computedAttributesService } from '../computed-attributes/service';
import { computedAttributeRoutes } from '../computed-attributes/routes';
import { commandsService } from '../commands/service';
import { commandRoutes } from '../commands/routes';
import { objectLinksService } from '../object-links/service';
import { objectLinkRoutes } from '../object-links/routes';
import { statisticsRoutes } from '../statistics/routes';
import { eventRoutes } from '../events/routes';
import type { MailChannel } from '../notification-rules/mail-channel';
import { webhookChannel } from '../notification-rules/webhook-channel';
import { notificationDispatcher, type NotificationDispatcher } from '../notification-rules/dispatcher';
import { notificationLinks } from '../notification-rules/links';
import { webPush } from '../notification-rules/web-push';
import { notificationRulesService } from '../notification-rules/service';
import { notificationRuleRoutes } from '../notification-rules/routes';
import { directSend, type InboxPort } from '../notification-rules/direct-send';
import { startNotificationConsumer } from '../notification-rules/consumer';
import { defaultNotificationSettings, type NotificationSettings } from '../notification-rules/settings';
import { companyScope } from '@corridor/platform';
import type { ReportsService } from '../reports/service';
import { reportMailer, type ReportMailer } from '../reports/mail';
import { scheduledReportRoutes } from '../scheduled-reports/routes';
import { scheduledReportRunner, type ScheduledReportRunner } from '../scheduled-reports/runner';
import { presentations, type Presentation } from '../reports/formats/presentation';
import { noticeDelivery, type NoticeDelivery } from '../notifications/delivery';
import { scheduledReportsService } from '../scheduled-reports/service';
import { reportLinks } from '../scheduled-reports/links';

export interface TrackingDeps {
  db: Orm;
  bus: Bus;
  cache: Cache;
  analytics: Analytics;
  logger: Logger;
  devicesRepo: DevicesRepository;
  devices: DevicesService;
  notifications?: NotificationSettings;
  /** The mail channel (SMTP_URL; undefined: none), closed with these modules. */
  mail?: MailChannel;
  /** The inbox: the web channel of test and announcement sends. */
  inbox: InboxPort;
  /** The reports scheduled reports run. */
  reports: ReportsService;
  /** Addresses of the events the API answers. */
  geocoder: Geocoder;
  /** How often due scheduled reports are looked for, ms (REPORT_SCHEDULE_CHECK_S); 0 = never by itself (tests call check). */
  reportScheduleCheckMs?: number;
  /** How often committed inbox notices are delivered by mail and webhook, ms (NOTICE_DELIVERY_CHECK_MS); 0 = never by itself (tests call check). */
  noticeDeliveryCheckMs?: number;
  /** How long a run may stay running before another check takes it again, ms (REPORT_RUN_LEASE_S). */
  reportRunLeaseMs?: number;
  /** This instance's name, kept with the scheduled report runs it claims. */
  instance?: string;
  /** A geofence's name (a web notification's sentence names the fence). */
  geofenceName?: (id: number) => string | undefined;
}

export interface TrackingModules {
  dispatcher: NotificationDispatcher;
  /** Runs scheduled reports on their calendars. */
  scheduledReports: ScheduledReportRunner;
  /** Delivers committed inbox notices by mail and webhook to the addressed users who turned those channels on. */
  notices: NoticeDelivery;
  /** Mails reports asked for by mail (/reports/{type}/mail, mail=true). */
  reportMailer: ReportMailer;
  /** How a report file shows its values to a user (their language, units and time zone), or to addresses (the server's). */
  presentationFor: (userId?: number) => Promise<Presentation>;
  /** Starts the notification-rules consumer of events.v1. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The Traccar-style tracking resources of ops-api (issue 8): device extras, inventories, groups,
 * drivers, calendars, commands, maintenance, computed attributes, device models, configurations,
 * drafts, orders, truck owners, tracking units, statistics, events and notification rules.
 */
export function trackingModules(app: App, deps: TrackingDeps): TrackingModules {
  const { db } = deps;
  const log = (module: string) => deps.logger.child({ module });
  const latest = latestPositions({ cache: deps.cache, analytics: deps.analytics });
  const accumulators = accumulatorsService({ db, cache: deps.cache });
  const visibleDevice = (id: number, who: Parameters<typeof companyScope>[0]) => deps.devices.get(id, companyScope(who));

  deviceExtraRoutes(app, { devices: deps.devices, configuration: deviceConfigurationService(db), accumulators });
  const groups = groupsService({ db, cache: deps.cache, logger: log('groups') });
  groupRoutes(app, groups);
  driverRoutes(app, driversService(db));
  const calendars = calendarsService({ db, cache: deps.cache, logger: log('calendars') });
  calendarRoutes(app, calendars);
  orderRoutes(app, ordersService(db));
  deviceModelRoutes(app, deviceModelsService(db));
  configurationRoutes(app, configurationsService(db));
  draftRoutes(app, draftsService(db));
  trackingUnitRoutes(app, trackingUnitsService(db));
  const truckOwners = truckOwnersService({ db, repo: truckOwnersRepository(db) });
  truckOwnerRoutes(app, truckOwners);
  inventoryRoutes(app, inventoriesService({ db, devicesRepo: deps.devicesRepo, devices: deps.devices, truckOwners }));
  const maintenance = maintenanceService({ db, cache: deps.cache, logger: log('maintenance'), devices: deps.devicesRepo, latest, accumulators });
  maintenanceRoutes(app, maintenance);
  const computed = computedAttributesService({ db, cache: deps.cache, logger: log('computed-attributes'), latest, visibleDevice });
  computedAttributeRoutes(app, computed);
  const commands = commandsService({ db, bus: deps.bus, devices: deps.devices, latest, logger: log('commands') });
  commandRoutes(app, commands);
  // a computed attribute and a maintenance apply to the devices linked to them: their published lists change with their links
  objectLinkRoutes(app, objectLinksService({
    db,
    changed: async (kinds) => {
      if (kinds.has('attributeId')) await computed.publish();
      if (kinds.has('maintenanceId')) await maintenance.publish();
    },
  }));
  statisticsRoutes(app, deps.analytics);
  eventRoutes(app, { analytics: deps.analytics, devices: deps.devicesRepo, geocoder: deps.geocoder });

  const settings = deps.notifications ?? defaultNotificationSettings();
  const { mail } = deps;
  const webhook = webhookChannel({ attempts: settings.webhookAttempts, timeoutMs: settings.webhookTimeoutMs, backoffMs: settings.webhookBackoffMs, policy: settings.webhookPolicy });
  const web = webPush({ bus: deps.bus, cache: deps.cache, geofenceName: deps.geofenceName });
  const dispatcher = notificationDispatcher({ db, channels: { mail, webhook, command: commands.sendSaved }, logger: log('notification-rules'), inbox: deps.inbox, webPush: web });
  const rules = notificationRulesService({ db, dispatcher, mailEnabled: !!mail, webhookPolicy: settings.webhookPolicy });
  const direct = directSend({ db, cache: deps.cache, dispatcher, inbox: deps.inbox, channels: rules.notificators().map((n) => n.type as Notificator), logger: log('notifications') });
  notificationRuleRoutes(app, rules, direct, notificationLinks({ db, cache: deps.cache }));

  scheduledReportRoutes(app, scheduledReportsService(db), reportLinks(db));
  // report files in their reader's language, units and time zone (the user directory, the server's attributes)
  const presentationFor = presentations(deps.cache);
  const scheduledReports = scheduledReportRunner({
    db, reports: deps.reports, mail, logger: log('scheduled-reports'), instance: deps.instance ?? `ops-api-${process.pid}`, leaseMs: deps.reportRunLeaseMs,
    presentation: () => presentationFor(),
  });

  // inbox notices (certificates, complaints, sanctions) by mail and webhook, through the rules' channels
  const notices = noticeDelivery({ db, cache: deps.cache, send: dispatcher.send, logger: log('notice-delivery') });

  const reportMails = reportMailer({ mail, logger: log('reports'), addressOf: (userId) => deps.inbox.addressOf(userId), presentationFor });

  let consumer: Subscription | undefined;
  return {
    dispatcher,
    reportMailer: reportMails,
    presentationFor,
    scheduledReports,
    notices,
    async start() {
      consumer = await startNotificationConsumer({ bus: deps.bus, logger: log('notification-rules'), dispatcher });
      await computed.publish();
      await calendars.publish();
      await groups.publish();
      await maintenance.publish();
      if (deps.reportScheduleCheckMs) scheduledReports.start(deps.reportScheduleCheckMs);
      if (deps.noticeDeliveryCheckMs) notices.start(deps.noticeDeliveryCheckMs);
    },
    async close() {
      await scheduledReports.stop();
      await notices.stop();
      await reportMails.drain();
      await consumer?.stop();
      mail?.close();
    },
  };
}
