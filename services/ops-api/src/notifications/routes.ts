import { notificationsEndpoints } from '@corridor/contracts';
import { registerEndpoint, type App } from '@corridor/platform';
import type { NotificationsService } from './service';

const [inbox, markRead, getSettings, updateSettings, verifyEmail] = notificationsEndpoints;

export function notificationRoutes(app: App, svc: NotificationsService): void {
  registerEndpoint(app, inbox, async (req) => svc.inbox(req.identity!, req.query));
  registerEndpoint(app, markRead, async (req) => svc.markRead(req.identity!, req.params.id));
  registerEndpoint(app, getSettings, async (req) => svc.settings(req.identity!));
  registerEndpoint(app, updateSettings, async (req) => svc.updateSettings(req.identity!, req.body));
  registerEndpoint(app, verifyEmail, async (req) => svc.verifyEmail(req.body.token));
}
