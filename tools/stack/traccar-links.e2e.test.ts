import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionId, ReportTrip, type Device, type Event, type SavedCommand } from '@corridor/contracts';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { ADMIN_AUTH, eventually, startTestStack, type TestStack } from './test-stack';

/**
 * Traccar's links of drivers, computed attributes, saved commands, maintenance and calendars
 * through the gateway's /permissions, with traccar-web's bodies (ids as the strings of its routes,
 * common/components/LinkField.jsx): kept by ops-api, listed back, and honoured by the lists'
 * deviceId, groupId and userId filters (what traccar-web ticks as linked). A bulk body spanning the
 * gateway's links and ops-api's is all or nothing: a refused part undoes the parts made before it.
 */
describe("Traccar's object links", { timeout: 180_000 }, () => {
  let stack: TestStack;
  let truck: Device;
  let other: Device;
  const call = (method: string, url: string, body?: unknown) => stack.call(ADMIN_AUTH, method, url, body);
  const idOf = async (url: string, body: unknown): Promise<number> => {
    const res = await call('POST', url, body);
    expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    return res.json<{ id: number }>().id;
  };
  const ids = async (url: string): Promise<number[]> => {
    const res = await call('GET', url);
    expect(res.statusCode, `${url} ${res.body}`).toBe(200);
    return res.json<{ id: number }[]>().map((x) => x.id);
  };
  const objects: Record<'driverId' | 'attributeId' | 'commandId' | 'maintenanceId', [linked: number, unlinked: number]> = {
    driverId: [0, 0],
    attributeId: [0, 0],
    commandId: [0, 0],
    maintenanceId: [0, 0],
  };
  const lists = {
    driverId: '/api/drivers',
    attributeId: '/api/attributes/computed',
    commandId: '/api/commands',
    maintenanceId: '/api/maintenance',
  } as const;

  beforeAll(async () => {
    stack = await startTestStack(await primaryKind());
    const device = async (n: number) =>
      (await call('POST', '/api/devices', { name: `KDC ${n}`, uniqueId: `86700000000${n}`, companyId: 101 })).json<Device>();
    truck = await device(1301);
    other = await device(1302);
    for (const n of [0, 1]) {
      objects.driverId[n] = await idOf('/api/drivers', { name: `Driver ${n}`, uniqueId: `links-card-${n}`, companyId: 101 });
      objects.attributeId[n] = await idOf('/api/attributes/computed', {
        description: `Half fuel ${n}`,
        attribute: `half${n}`,
        expression: 'fuel / 2',
        type: 'number',
        companyId: 101,
      });
      objects.commandId[n] = await idOf('/api/commands', { description: `Stop ${n}`, type: 'engineStop', companyId: 101 });
      objects.maintenanceId[n] = await idOf('/api/maintenance', {
        name: `Service ${n}`,
        type: 'totalDistance',
        start: 0,
        period: 10_000_000,
        companyId: 101,
      });
    }
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  it('links objects to a device with string ids, lists the links, and filters the lists to what is linked', async () => {
    const kinds = Object.keys(objects) as (keyof typeof objects)[];
    const body = kinds.map((k) => ({ deviceId: String(truck.id), [k]: String(objects[k][0]) }));
    const linked = await call('POST', '/api/permissions/bulk', body);
    expect(linked.statusCode, linked.body).toBe(204);
    for (const k of kinds) {
      const links = await call('GET', `/api/permissions?deviceId=${truck.id}&${k}=0`);
      expect(links.json(), k).toEqual([{ deviceId: truck.id, [k]: objects[k][0] }]);
      // what traccar-web's LinkField reads: all of them, then those linked to the device
      expect(await ids(lists[k]), k).toEqual(expect.arrayContaining(objects[k]));
      expect(await ids(`${lists[k]}?deviceId=${truck.id}`), k).toEqual([objects[k][0]]);
      expect(await ids(`${lists[k]}?deviceId=${other.id}`), k).toEqual([]);
    }
    // calendars link to users only (Traccar)
    const ics =
      'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:weekdays\r\nDTSTART:20260105T050000Z\r\n' +
      'DTEND:20260105T150000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n';
    const calendar = await idOf('/api/calendars', { name: 'Weekdays', data: Buffer.from(ics).toString('base64'), companyId: 101 });
    const user = await stack.user(['dispatcher'], 101);
    expect((await call('POST', '/api/permissions', { userId: String(user.id), calendarId: String(calendar) })).statusCode).toBe(204);
    expect(await ids(`/api/calendars?userId=${user.id}`)).toEqual([calendar]);
    expect((await call('POST', '/api/permissions', { deviceId: truck.id, calendarId: calendar })).statusCode).toBe(400);

    const unlinked = await call('DELETE', '/api/permissions/bulk', body);
    expect(unlinked.statusCode, unlinked.body).toBe(204);
    for (const k of kinds) expect(await ids(`${lists[k]}?deviceId=${truck.id}`), k).toEqual([]);
  });

  it('undoes the links already made when a later part of a bulk body is refused, naming the item by its index in the body', async () => {
    const user = await stack.user(['company_user'], 101);
    expect((await call('POST', '/api/permissions', { deviceId: truck.id, driverId: objects.driverId[1] })).statusCode).toBe(204);
    // the gateway's link comes first; ops-api then refuses the existing driver link (item 2)
    const body = [
      { userId: user.id, deviceId: truck.id },
      { deviceId: truck.id, maintenanceId: objects.maintenanceId[1] },
      { deviceId: truck.id, driverId: objects.driverId[1] },
    ];
    const res = await call('POST', '/api/permissions/bulk', body);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'CONFLICT', details: { index: 2 } } });
    expect((await call('GET', `/api/permissions?userId=${user.id}&deviceId=0`)).json()).toEqual([]);
    expect(await ids(`/api/maintenance?deviceId=${truck.id}`)).toEqual([]);
    expect(await ids(`/api/drivers?deviceId=${truck.id}`)).toEqual([objects.driverId[1]]);
  });

  it('honours the links: a trip names only a linked driver, only a linked truck gets the maintenance event, /commands/send offers only linked commands', async () => {
    // traccar-web's bodies: objects as its forms save them, links with the device page's id as a string
    const driver = await idOf('/api/drivers', { name: 'Amina Odhiambo', uniqueId: 'card-77', attributes: {}, companyId: 101 });
    const service = await idOf('/api/maintenance', {
      name: 'First kilometre',
      type: 'totalDistance',
      start: 1000,
      period: 1_000_000,
      attributes: {},
      companyId: 101,
    });
    const linkedCommand = await idOf('/api/commands', {
      description: 'Ask position',
      type: 'custom',
      attributes: { data: 'WHERE#' },
      companyId: 101,
    });
    const otherCommand = await idOf('/api/commands', {
      description: 'Not for the truck',
      type: 'custom',
      attributes: { data: 'RESET#' },
      companyId: 101,
    });
    const group = await idOf('/api/groups', { name: 'Linked run', attributes: {}, companyId: 101 });
    const [a, b, idle] = await Promise.all(
      [1311, 1312, 1313].map(async (n) =>
        (
          await call('POST', '/api/devices', {
            name: `KDL ${n}`,
            uniqueId: `86700000000${n}`,
            companyId: 101,
            ...(n === 1311 ? { groupId: group } : {}),
          })
        ).json<Device>(),
      ),
    );
    for (const body of [
      { deviceId: String(a!.id), driverId: driver },
      { groupId: String(group), maintenanceId: service },
      { deviceId: String(idle!.id), commandId: linkedCommand },
    ]) {
      const res = await call('POST', '/api/permissions', body);
      expect(res.statusCode, `${JSON.stringify(body)} ${res.body}`).toBe(204);
    }
    // both trucks drive 3.5 km with the same driver card: parked, five minutes on the road, parked again
    const t0 = Math.floor(Date.now() / 1000) - 2 * 3600;
    const metres = [0, 0, 0, 700, 1400, 2100, 2800, 3500, 3500, 3500, 3500, 3500, 3500];
    for (const d of [a!, b!]) {
      for (const [i, m] of metres.entries()) {
        const q = `id=${d.uniqueId}&lat=-1.2&lon=${36.7 + m / 111_320}&timestamp=${t0 + i * 60}&speed=${i >= 3 && i <= 7 ? 22 : 0}&driverUniqueId=card-77`;
        const res = await stack.ingest.osmand.inject({ method: 'GET', url: `/?${q}` });
        expect(res.statusCode, res.body).toBe(200);
      }
    }
    const period = (d: Device) =>
      new URLSearchParams({ deviceId: String(d.id), from: new Date((t0 - 60) * 1000).toISOString(), to: new Date().toISOString() });
    const tripsOf = (d: Device) =>
      eventually(`the trip of ${d.name}`, async () => {
        const res = await call('GET', `/api/reports/trips?${period(d)}`);
        const trips = res.statusCode === 200 ? res.json<unknown[]>().map((t) => ReportTrip.parse(t)) : [];
        return trips.length > 0 && trips;
      });
    const [tripA] = await tripsOf(a!);
    const [tripB] = await tripsOf(b!);
    expect([tripA!.driverUniqueId, tripA!.driverName]).toEqual(['card-77', 'Amina Odhiambo']);
    expect([tripB!.driverUniqueId, tripB!.driverName]).toEqual(['card-77', undefined]);
    // the maintenance is linked to truck a's group: a's crossing of 1 km is an event, b's is not (b's last fix is evaluated when a trip is reported for it)
    const maintenance = (d: Device) => call('GET', `/api/reports/events?${period(d)}&type=maintenance`).then((r) => r.json<Event[]>());
    const [due] = await eventually('the maintenance of truck a', async () => {
      const e = await maintenance(a!);
      return e.length > 0 && e;
    });
    expect(due).toMatchObject({ type: 'maintenance', maintenanceId: service });
    const lastOfB = positionId(b!.id, (t0 + (metres.length - 1) * 60) * 1000);
    await eventually(
      "truck b's last fix through the device state",
      async () => (await call('GET', `/api/devices/${b!.id}`)).json<Device>().positionId === lastOfB,
    );
    expect(await maintenance(b!)).toEqual([]);
    // a saved command is offered to the devices linked to it
    const offered = await call('GET', `/api/commands/send?deviceId=${idle!.id}`);
    expect(offered.statusCode, offered.body).toBe(200);
    // otherCommand, saved for no device and linked to none, is listed but offered to no device (every device before)
    expect(await ids('/api/commands')).toEqual(expect.arrayContaining([linkedCommand, otherCommand]));
    expect(offered.json<SavedCommand[]>().map((c) => c.id)).toEqual([linkedCommand]);
  });

  it("lets a dispatcher link their company's objects to their devices, not to users, and hides other companies' objects (404)", async () => {
    const dispatcher = await stack.user(['dispatcher'], 101);
    const as = (method: string, body: unknown) => stack.call(dispatcher.auth, method, '/api/permissions', body);
    expect((await as('POST', { deviceId: other.id, commandId: objects.commandId[1] })).statusCode).toBe(204);
    expect((await as('POST', { userId: dispatcher.id, commandId: objects.commandId[1] })).statusCode).toBe(403);
    const foreign = await idOf('/api/drivers', { name: 'Foreign driver', uniqueId: 'links-card-foreign', companyId: 202 });
    const res = await as('POST', { deviceId: other.id, driverId: foreign });
    expect(res.statusCode, res.body).toBe(404);
    expect((await as('DELETE', { deviceId: other.id, commandId: objects.commandId[1] })).statusCode).toBe(204);
  });
});
