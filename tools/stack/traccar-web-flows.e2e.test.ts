import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputedAttribute, Device, NotificationRule, ScheduledReport, User } from '@corridor/contracts';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { ADMIN_AUTH, startTestStack, type TestStack } from './test-stack';

/**
 * The writes of traccar-web 6.14.5 that Corridor refused, with the exact bodies it sends (read from
 * its sources: settings/UserPage.jsx, settings/ComputedAttributePage.jsx, reports/common/scheduleReport.js,
 * reports/components/ReportFilter.jsx, common/components/LinkField.jsx): a user without roles, a
 * computed attribute of type "number", a scheduled report without recipients then linked with
 * /permissions/bulk, and connections whose base id is the string of the page's route ("26").
 */
describe("traccar-web's writes", { timeout: 180_000 }, () => {
  let stack: TestStack;
  let truck: Device;
  const call = (method: string, url: string, body?: unknown) => stack.call(ADMIN_AUTH, method, url, body);

  beforeAll(async () => {
    stack = await startTestStack(await primaryKind());
    const made = await call('POST', '/api/devices', { name: 'KDB 260', uniqueId: '867000000000260', companyId: 101 });
    expect(made.statusCode, made.body).toBe(200);
    truck = made.json<Device>();
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('creates a user without roles (the least role) and an administrator by its flag', async () => {
    const plain = await call('POST', '/api/users', { deviceLimit: -1, name: 'Amina', email: 'amina@web.test', password: 'amina-password' });
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json<User>()).toMatchObject({ roles: ['company_user'], administrator: false, readonly: true });
    const admin = await call('POST', '/api/users', {
      deviceLimit: -1,
      name: 'Baraka',
      email: 'baraka@web.test',
      password: 'baraka-password',
      administrator: true,
    });
    expect(admin.statusCode, admin.body).toBe(200);
    expect(admin.json<User>()).toMatchObject({
      roles: ['admin'],
      administrator: true,
      readonly: false,
      deviceReadonly: false,
      limitCommands: false,
    });
  });

  it('saves a computed attribute of type "number" (lowercase)', async () => {
    const res = await call('POST', '/api/attributes/computed', {
      description: 'Speed km/h',
      attribute: 'speedKmh',
      expression: 'speed * 1.852',
      type: 'number',
      priority: 0,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ComputedAttribute>()).toMatchObject({ type: 'Number', attribute: 'speedKmh' });
  });

  it('schedules a report without recipients, then links its device with /permissions/bulk', async () => {
    const cal = await call('POST', '/api/calendars', {
      name: 'Daily',
      data: Buffer.from(
        'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:d1\r\nDTSTART:20260101T000000Z\r\nDTEND:20260101T235959Z\r\nRRULE:FREQ=DAILY\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
      ).toString('base64'),
    });
    expect(cal.statusCode, cal.body).toBe(200);
    const calendarId = cal.json<{ id: number }>().id;
    // ReportFilter's onSchedule: { description, calendarId, attributes: {} } and the page's type
    const saved = await call('POST', '/api/reports', { description: 'Trips daily', calendarId, attributes: {}, type: 'trips' });
    expect(saved.statusCode, saved.body).toBe(200);
    const report = saved.json<ScheduledReport>();
    expect(report).toMatchObject({ deviceIds: [], recipients: ['admin@corridor.test'] });
    const linked = await call('POST', '/api/permissions/bulk', [{ deviceId: truck.id, reportId: report.id }]);
    expect(linked.statusCode, linked.body).toBe(204);
    expect((await call('GET', `/api/reports/${report.id}`)).json<ScheduledReport>().deviceIds).toEqual([truck.id]);
    const listed = await call('GET', `/api/permissions?deviceId=${truck.id}&reportId=0`);
    expect(listed.json(), listed.body).toEqual([{ reportId: report.id, deviceId: truck.id }]);
    expect((await call('DELETE', '/api/permissions', { deviceId: String(truck.id), reportId: report.id })).statusCode).toBe(204);
    expect((await call('GET', `/api/reports/${report.id}`)).json<ScheduledReport>().deviceIds).toEqual([]);
  });

  it('links a device to a notification rule and a geofence with the device id as a string, as the connections page sends it', async () => {
    const rule = (
      await call('POST', '/api/notifications', { type: 'ignitionOn', notificators: 'web', attributes: {} })
    ).json<NotificationRule>();
    const toRule = await call('POST', '/api/permissions', { deviceId: String(truck.id), notificationId: rule.id });
    expect(toRule.statusCode, toRule.body).toBe(204);
    expect((await call('GET', `/api/notifications/${rule.id}`)).json<NotificationRule>().deviceIds).toEqual([truck.id]);
    const fence = (await call('POST', '/api/geofences', { name: 'Depot', area: 'CIRCLE (-1.3 36.85, 200)', companyId: 101 })).json<{
      id: number;
    }>();
    const toFence = await call('POST', '/api/permissions', { deviceId: String(truck.id), geofenceId: fence.id });
    expect(toFence.statusCode, toFence.body).toBe(204);
    expect((await call('DELETE', '/api/permissions', { deviceId: String(truck.id), geofenceId: fence.id })).statusCode).toBe(204);
    expect((await call('POST', '/api/permissions', { deviceId: 'twenty-six', geofenceId: fence.id })).statusCode).toBe(400);
  });
});
