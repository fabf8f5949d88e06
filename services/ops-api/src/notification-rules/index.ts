import type { Notificator } from '@corridor/contracts';
import type { Subscription } from '@corridor/platform';
import type { CommandsService } from '../commands/service';
import type { OpsModule } from '../module';
import { noticeDelivery, type NoticeDelivery } from '../notifications/delivery';
import { startNotificationConsumer } from './consumer';
import { directSend, type InboxPort } from './direct-send';
import { notificationDispatcher, type NotificationDispatcher } from './dispatcher';
import { notificationLinks } from './links';
import type { MailChannel } from './mail-channel';
import { notificationRuleRoutes } from './routes';
import { notificationRulesService } from './service';
import type { NotificationSettings } from './settings';
import { webPush } from './web-push';
import { webhookChannel } from './webhook-channel';

export interface NotificationRulesOptions {
  settings: NotificationSettings;
  mail?: MailChannel;
  /** The inbox: the web channel of test and announcement sends. */
  inbox: InboxPort;
  /** Saved commands a rule sends. */
  commands: CommandsService;
  /** A geofence's name (a web notification's sentence names the fence). */
  geofenceName?: (id: number) => string | undefined;
  /** How often committed inbox notices are delivered by mail and webhook, ms (NOTICE_DELIVERY_CHECK_MS); unset or 0 = never by itself (tests call check). */
  noticeDeliveryCheckMs?: number;
}

export interface NotificationRulesModule {
  dispatcher: NotificationDispatcher;
  /** Delivers committed inbox notices by mail and webhook to the addressed users who turned those channels on. */
  notices: NoticeDelivery;
}

/**
 * Notification rules: their service and routes, the dispatcher over their channels (web, mail,
 * webhook, command), the consumer of events.v1 that feeds it, and the delivery of inbox notices
 * (certificates, complaints, sanctions) through the same channels.
 */
export const notificationRulesModule: OpsModule<NotificationRulesOptions, NotificationRulesModule> = (
  app,
  { base, life, settings, mail, inbox, commands, geofenceName, noticeDeliveryCheckMs },
) => {
  const { db, cache } = base;
  const log = base.logger.child({ module: 'notification-rules' });
  const webhook = webhookChannel({
    attempts: settings.webhookAttempts,
    timeoutMs: settings.webhookTimeoutMs,
    backoffMs: settings.webhookBackoffMs,
    policy: settings.webhookPolicy,
  });
  const web = webPush({ bus: base.bus, cache, geofenceName });
  const dispatcher = notificationDispatcher({
    db,
    channels: { mail, webhook, command: commands.sendSaved },
    logger: log,
    inbox,
    webPush: web,
  });
  const rules = notificationRulesService({ db, dispatcher, mailEnabled: !!mail, webhookPolicy: settings.webhookPolicy });
  const direct = directSend({
    db,
    cache,
    dispatcher,
    inbox,
    channels: rules.notificators().map((n) => n.type as Notificator),
    logger: base.logger.child({ module: 'notifications' }),
  });
  notificationRuleRoutes(app, rules, direct, notificationLinks({ db, cache }));
  const notices = noticeDelivery({ db, cache, send: dispatcher.send, logger: base.logger.child({ module: 'notice-delivery' }) });

  let consumer: Subscription | undefined;
  life.onStart(async () => {
    consumer = await startNotificationConsumer({ bus: base.bus, logger: log, dispatcher });
    if (noticeDeliveryCheckMs) notices.start(noticeDeliveryCheckMs);
  });
  life.onClose(async () => {
    await notices.stop();
    await consumer?.stop();
  });
  return { dispatcher, notices };
};
