import type { Fixtures } from './generated-values';

/**
 * The order in which the conformance run calls Traccar's operations, and what each call needs
 * beyond the values generated from the schema. Every operation of the document appears here once
 * (the test fails on one missing or one unknown); most need nothing, their inputs come from the
 * schema and the fixtures the earlier steps made.
 */

export interface StepRequest {
  /** path parameters beyond the generated ones */
  params?: Record<string, string | number>;
  /** query parameters (optional ones are sent only when a step names them) */
  query?: Record<string, string | number | boolean | (string | number)[]>;
  /** fields of the generated JSON body given by the step (undefined leaves a field out) */
  body?: Record<string, unknown>;
  /** a whole JSON body instead of a generated one */
  json?: unknown;
  /** a form body (application/x-www-form-urlencoded) */
  form?: Record<string, string>;
  /** a raw body of this media type */
  raw?: { type: string; data: Buffer };
  /** how the call signs in: the administrator's Basic credentials (default), the session cookie, none */
  auth?: 'admin' | 'cookie' | 'none';
}

export interface StepAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  rawPayload: Buffer;
}

export interface Step {
  op: string;
  request?: (fx: Fixtures) => StepRequest | Promise<StepRequest>;
  /**
   * The answer expected instead of a 2xx, for a Traccar feature Corridor answers as a Traccar server
   * without it (each listed in the README's Traccar section).
   */
  expect?: number;
  /** what the answer gives to later steps */
  after?: (res: StepAnswer, fx: Fixtures) => void | Promise<void>;
}

/** A 1×1 transparent PNG (the smallest valid image): a device's picture. */
const tinyPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

const idOf = (res: StepAnswer): number => (JSON.parse(res.body) as { id: number }).id;
const keep = (key: string) => (res: StepAnswer, fx: Fixtures) => void (fx[key] = idOf(res));

export function conformancePlan(hooks: {
  /** reports a few fixes for the fixture device (a trip with an alarm), and waits until they are stored */
  feedPositions(fx: Fixtures): Promise<void>;
  /** the password reset token mailed for the given address */
  resetToken(email: string): Promise<string>;
  /** keeps the session cookie a sign-in answered */
  keepCookie(res: StepAnswer): void;
  /** the administrator's credentials */
  admin: { email: string; password: string };
}): Step[] {
  const period = (fx: Fixtures) => ({ deviceId: Number(fx.deviceId), from: String(fx.from), to: String(fx.to) });
  return [
    { op: 'getHealth', request: () => ({ auth: 'none' }) },
    { op: 'getServer', request: () => ({ auth: 'none' }), after: keep('serverId') },
    { op: 'putServer', request: (fx) => ({ body: { id: fx.serverId } }) },
    { op: 'getServerTimezones' },
    { op: 'getServerGeocode', request: () => ({ query: { latitude: -1.2921, longitude: 36.8219 } }) },
    {
      op: 'postSession',
      request: () => ({ auth: 'none', form: { email: hooks.admin.email, password: hooks.admin.password } }),
      after: (res) => hooks.keepCookie(res),
    },
    { op: 'getSession', request: () => ({ auth: 'cookie' }) },
    {
      op: 'postSessionToken',
      request: () => ({ form: { expiration: new Date(Date.now() + 86_400_000).toISOString() } }),
      after: (res, fx) => void (fx.token = res.body),
    },
    { op: 'getSession', request: (fx) => ({ auth: 'none', query: { token: String(fx.token) } }) },
    { op: 'postSessionTokenRevoke', request: (fx) => ({ form: { token: String(fx.token) } }) },

    { op: 'postCalendars', after: keep('calendarId') },
    { op: 'getCalendars' },
    { op: 'getCalendarsId' },
    { op: 'putCalendarsId' },
    { op: 'postGroups', after: keep('groupId') },
    { op: 'getGroups' },
    { op: 'getGroupsId' },
    { op: 'putGroupsId' },
    { op: 'postDevices', after: keep('deviceId') },
    { op: 'getDevices', request: (fx) => ({ query: { id: Number(fx.deviceId) } }) },
    { op: 'getDevicesId' },
    { op: 'putDevicesId' },
    { op: 'postGeofences', after: keep('geofenceId') },
    { op: 'getGeofences', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getGeofencesId' },
    { op: 'putGeofencesId' },
    { op: 'postAttributesComputed', after: keep('attributeId') },
    { op: 'getAttributesComputed', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getAttributesComputedId' },
    { op: 'putAttributesComputedId' },
    { op: 'postDrivers', after: keep('driverId') },
    { op: 'getDrivers', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getDriversId' },
    { op: 'putDriversId' },
    { op: 'postMaintenance', after: keep('maintenanceId') },
    { op: 'getMaintenance', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getMaintenanceId' },
    { op: 'putMaintenanceId' },
    { op: 'postNotifications', after: keep('notificationId') },
    { op: 'getNotifications', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getNotificationsId' },
    { op: 'putNotificationsId' },
    { op: 'getNotificationsTypes' },
    { op: 'getNotificationsNotificators' },
    { op: 'postNotificationsTest' },
    { op: 'postNotificationsTestNotificator', request: () => ({ params: { notificator: 'web' } }) },
    { op: 'postOrders', after: keep('orderId') },
    { op: 'getOrders' },
    { op: 'getOrdersId' },
    { op: 'putOrdersId' },
    {
      op: 'postUsers',
      after: (res, fx) => void Object.assign(fx, { userId: idOf(res), userEmail: (JSON.parse(res.body) as { email: string }).email }),
    },
    { op: 'getUsers' },
    { op: 'getUsersId' },
    // the same address: the password reset below is mailed to it
    { op: 'putUsersId', request: (fx) => ({ body: { email: fx.userEmail } }) },
    {
      op: 'postNotificationsSendNotificator',
      request: (fx) => ({ params: { notificator: 'web' }, query: { userId: [Number(fx.userId)] } }),
    },
    { op: 'postCommands', after: keep('commandId') },
    { op: 'getCommands', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getCommandsId' },
    { op: 'putCommandsId' },
    { op: 'getCommandsTypes', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    { op: 'getCommandsSend', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    {
      op: 'postCommandsSend',
      request: (fx) => ({ body: { deviceId: fx.deviceId, type: 'positionPeriodic', attributes: { frequency: 60 } } }),
    },

    // links: a user to the device, the device to every kind of object Traccar links it to
    { op: 'postPermissions', request: (fx) => ({ json: { userId: fx.userId, deviceId: fx.deviceId } }) },
    { op: 'getPermissions', request: (fx) => ({ query: { userId: Number(fx.userId), deviceId: 0 } }) },
    {
      op: 'postPermissionsBulk',
      request: (fx) => ({
        json: ['geofenceId', 'notificationId', 'driverId', 'attributeId', 'commandId', 'maintenanceId'].map((k) => ({
          deviceId: fx.deviceId,
          [k]: fx[k],
        })),
      }),
    },
    {
      op: 'deletePermissionsBulk',
      request: (fx) => ({ json: ['driverId', 'maintenanceId'].map((k) => ({ deviceId: fx.deviceId, [k]: fx[k] })) }),
    },
    { op: 'deletePermissions', request: (fx) => ({ json: { userId: fx.userId, deviceId: fx.deviceId } }) },
    { op: 'getSessionId', request: (fx) => ({ params: { id: Number(fx.userId) } }) },
    { op: 'postUsersTotp' },

    // the device reports; then what reads its positions
    {
      op: 'putDevicesIdAccumulators',
      request: async (fx) => {
        await hooks.feedPositions(fx);
        return { body: { deviceId: fx.deviceId } };
      },
    },
    { op: 'postDevicesIdImage', request: () => ({ raw: { type: 'image/png', data: tinyPng } }) },
    { op: 'postAttributesComputedTest', request: (fx) => ({ query: { deviceId: Number(fx.deviceId) } }) },
    {
      op: 'getPositions',
      request: (fx) => ({ query: period(fx) }),
      after: (res, fx) => void (fx.positionId = (JSON.parse(res.body) as { id: number }[])[0]?.id),
    },
    { op: 'getPositionsKml', request: (fx) => ({ query: period(fx) }) },
    { op: 'getPositionsCsv', request: (fx) => ({ query: period(fx) }) },
    { op: 'getPositionsGpx', request: (fx) => ({ query: period(fx) }) },
    {
      op: 'getReportsEvents',
      request: (fx) => ({ query: period(fx) }),
      after: (res, fx) => void (fx.eventId = (JSON.parse(res.body) as { id: number }[])[0]?.id),
    },
    { op: 'getEventsId' },
    { op: 'getReportsEventsType', request: (fx) => ({ params: { type: 'xlsx' }, query: period(fx) }) },
    { op: 'getReportsRoute', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsRouteType', request: (fx) => ({ params: { type: 'xlsx' }, query: period(fx) }) },
    { op: 'getReportsSummary', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsSummaryType', request: (fx) => ({ params: { type: 'xlsx' }, query: period(fx) }) },
    { op: 'getReportsTrips', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsTripsType', request: (fx) => ({ params: { type: 'xlsx' }, query: period(fx) }) },
    { op: 'getReportsStops', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsStopsType', request: (fx) => ({ params: { type: 'xlsx' }, query: period(fx) }) },
    { op: 'getReportsGeofences', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsCombined', request: (fx) => ({ query: period(fx) }) },
    { op: 'getReportsDevicesType', request: () => ({ params: { type: 'xlsx' } }) },
    { op: 'getStatistics', request: (fx) => ({ query: { from: period(fx).from, to: new Date(Date.now() + 60_000).toISOString() } }) },
    { op: 'getAudit', request: (fx) => ({ query: { from: period(fx).from, to: new Date(Date.now() + 60_000).toISOString() } }) },
    // no anonymous location links: as a Traccar server with sharing disabled (its default), 403
    {
      op: 'postShareDevice',
      request: (fx) => ({ form: { deviceId: String(fx.deviceId), expiration: new Date(Date.now() + 3_600_000).toISOString() } }),
      expect: 403,
    },
    {
      op: 'postShareGroup',
      request: (fx) => ({ form: { groupId: String(fx.groupId), expiration: new Date(Date.now() + 3_600_000).toISOString() } }),
      expect: 403,
    },
    // no device here streams video: as a Traccar server for a device without a camera, 404
    { op: 'getStreamDeviceIdChannelLiveM3u8', request: (fx) => ({ params: { deviceId: Number(fx.deviceId), channel: 1 } }), expect: 404 },
    {
      op: 'getStreamDeviceIdChannelIndexTs',
      request: (fx) => ({ params: { deviceId: Number(fx.deviceId), channel: 1, index: 0 } }),
      expect: 404,
    },

    { op: 'getServerGc' },
    { op: 'getServerCache' },
    // no web override folder: as Traccar without web.override, 400
    {
      op: 'postServerFilePath',
      request: () => ({
        params: { path: 'conformance.txt' },
        raw: { type: 'application/octet-stream', data: Buffer.from('conformance run\n') },
      }),
      expect: 400,
    },
    // Corridor's services are restarted by their orchestrator, never through the API
    { op: 'postServerReboot', expect: 400 },
    // no OpenID provider configured: as Traccar without one
    { op: 'getSessionOpenidAuth', request: () => ({ auth: 'none' }), expect: 400 },
    { op: 'getSessionOpenidCallback', request: () => ({ auth: 'none' }), expect: 400 },
    { op: 'postPasswordReset', request: (fx) => ({ auth: 'none', form: { email: String(fx.userEmail) } }) },
    {
      op: 'postPasswordUpdate',
      request: async (fx) => ({
        auth: 'none',
        form: { token: await hooks.resetToken(String(fx.userEmail)), password: `new-password-${Date.now()}` },
      }),
    },

    { op: 'deletePositionsId' },
    { op: 'deletePositions', request: (fx) => ({ query: period(fx) }) },
    { op: 'deleteOrdersId' },
    { op: 'deleteMaintenanceId' },
    { op: 'deleteDriversId' },
    { op: 'deleteAttributesComputedId' },
    { op: 'deleteCommandsId' },
    { op: 'deleteNotificationsId' },
    { op: 'deleteGeofencesId' },
    { op: 'deleteDevicesId' },
    { op: 'deleteGroupsId' },
    { op: 'deleteCalendarsId' },
    { op: 'deleteUsersId' },
    { op: 'deleteSession', request: () => ({ auth: 'cookie' }) },
  ];
}
