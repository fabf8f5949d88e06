import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputedTestResult, Device, MaintenanceDue, PositionMessageInput } from '@corridor/contracts';
import { cacheKeys, insertPositions } from '@corridor/platform';
import { PositionMessage, positionId } from '@corridor/contracts';
import { testUsers } from '@corridor/platform/testing/identity';
import { eq } from 'drizzle-orm';
import { maintenances } from '../src/db/schema';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';

/** Maintenance schedule from latest positions and accumulators; computed attributes tested on a device's latest position. */
let h: Harness;
let truck: Device;
let other: Device;
let silent: Device;
const position = (d: Device, over: Partial<PositionMessageInput>): PositionMessageInput => ({
  id: positionId(d.id, 1767225600000),
  deviceId: d.id,
  uniqueId: d.uniqueId,
  protocol: 'teltonika',
  fixTime: '2026-01-01T00:00:00Z',
  serverTime: '2026-01-01T00:00:01Z',
  valid: true,
  latitude: -3.39,
  longitude: 38.56,
  speed: 48.6,
  course: 90,
  ...over,
});

beforeAll(async () => {
  h = await startHarness();
  const mk = async (uniqueId: string, companyId: number) =>
    (await h.call(testUsers.admin, 'POST', '/api/devices', { name: `T-${uniqueId.slice(-2)}`, uniqueId, companyId })).json<Device>();
  truck = await mk('864000000000001', 101);
  other = await mk('864000000000002', 202);
  silent = await mk('864000000000003', 101);
  await h.adapters.cache.set(
    cacheKeys.latestPosition(truck.id),
    JSON.stringify(
      position(truck, {
        odometer: 25_300_000,
        ignition: true,
        attributes: { totalDistance: 25_300_000, hours: 3_600_000 * 1500, fuel: 210.5, io239: 1 },
      }),
    ),
  );
  // the other company's device has no cached position: its latest comes from ClickHouse
  // and a later fix ingest marked clockAhead (its device's clock ran ahead) is never the latest (issue 23)
  await insertPositions(h.adapters.analytics)([
    PositionMessage.parse(
      position(other, {
        odometer: 9_000_000,
        fixTime: '2026-01-02T00:00:00Z',
        id: positionId(other.id, 1767312000000),
        attributes: { totalDistance: 8_000_000 },
      }),
    ),
    PositionMessage.parse(
      position(other, {
        odometer: 99_000_000,
        fixTime: '2026-01-02T00:09:00Z',
        id: positionId(other.id, 1767312540000),
        attributes: { totalDistance: 98_000_000, clockAhead: 540 },
      }),
    ),
  ]);
});
afterAll(async () => h?.close());

describe('maintenance schedule', () => {
  it("computes the next due value per device and maintenance, soonest first, within the caller's company", async () => {
    const oil = (
      await h.call(testUsers.admin, 'POST', '/api/maintenance', {
        name: 'Oil change',
        type: 'totalDistance',
        start: 10_000_000,
        period: 10_000_000,
      })
    ).json<{ id: number }>();
    const service = (
      await h.call(dispatcherOf(101), 'POST', '/api/maintenance', {
        name: 'Engine service',
        type: 'hours',
        start: 0,
        period: 3_600_000 * 500,
      })
    ).json<{ id: number }>();
    const tz = (
      await h.call(dispatcherOf(202), 'POST', '/api/maintenance', {
        name: 'TZ inspection',
        type: 'odometer',
        start: 20_000_000,
        period: 5_000_000,
      })
    ).json<{ id: number }>();
    const unlinked = (
      await h.call(dispatcherOf(101), 'POST', '/api/maintenance', { name: 'Linked to none', type: 'hours', start: 0, period: 3_600_000 })
    ).json<{ id: number }>();
    // a maintenance is due on the devices linked to it (Traccar's links)
    const links = [
      [truck, oil],
      [other, oil],
      [truck, service],
      [silent, service],
      [other, tz],
    ].map(([d, m]) => ({ deviceId: d!.id, maintenanceId: m!.id }));
    const linked = await h.call(testUsers.admin, 'POST', '/api/links/objects', links);
    expect(linked.statusCode, linked.body).toBe(204);

    const res = await h.call(testUsers.companyA, 'GET', `/api/maintenance-schedule?deviceId=${truck.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const due = res.json<MaintenanceDue[]>();
    expect(due.map((d) => [d.maintenanceId, d.current, d.nextDue, d.remaining])).toEqual([
      [oil.id, 25_300_000, 30_000_000, 4_700_000],
      [service.id, 3_600_000 * 1500, 3_600_000 * 2000, 3_600_000 * 500],
    ]);
    expect(due[0]).toMatchObject({ deviceName: truck.name, positionTime: '2026-01-01T00:00:00.000Z' });

    const tzView = (await h.call(testUsers.companyB, 'GET', '/api/maintenance-schedule')).json<MaintenanceDue[]>();
    expect(tzView.map((d) => [d.deviceId, d.maintenanceId, d.nextDue])).toEqual([
      [other.id, oil.id, 10_000_000],
      [other.id, tz.id, 20_000_000],
    ]);

    const none = (await h.call(testUsers.companyA, 'GET', `/api/maintenance-schedule?deviceId=${silent.id}`)).json<MaintenanceDue[]>();
    expect(none.map((d) => [d.maintenanceId, d.current, d.nextDue])).toEqual([[service.id, null, null]]);
    expect(
      (await h.call(testUsers.companyA, 'GET', '/api/maintenance-schedule')).json<MaintenanceDue[]>().map((d) => d.maintenanceId),
    ).not.toContain(unlinked.id);
    // another company's device, named in a filter, answers like an unknown one
    expect((await h.call(testUsers.companyA, 'GET', `/api/maintenance-schedule?deviceId=${other.id}`)).statusCode).toBe(404);
  });

  it("refuses the sweep's period of 5e-324 (400), and a maintenance stored with one before gives an unknown due value, not a 500", async () => {
    expect400(
      await h.call(dispatcherOf(101), 'POST', '/api/maintenance', { name: 'Tiny', type: 'totalDistance', start: 0, period: 5e-324 }),
      'period',
    );
    const made = (
      await h.call(dispatcherOf(101), 'POST', '/api/maintenance', { name: 'Stored tiny', type: 'totalDistance', start: 0, period: 1 })
    ).json<{ id: number }>();
    await h.adapters.db.orm.update(maintenances).set({ period: 5e-324 }).where(eq(maintenances.id, made.id));
    expect((await h.call(testUsers.admin, 'POST', '/api/links/objects', [{ deviceId: truck.id, maintenanceId: made.id }])).statusCode).toBe(
      204,
    );
    for (const who of [testUsers.companyA, testUsers.officer, testUsers.admin]) {
      const res = await h.call(who, 'GET', '/api/maintenance-schedule');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<MaintenanceDue[]>().find((d) => d.maintenanceId === made.id && d.deviceId === truck.id)).toMatchObject({
        current: expect.any(Number),
        nextDue: null,
        remaining: null,
      });
    }
    await h.call(testUsers.admin, 'DELETE', `/api/maintenance/${made.id}`);
  });

  it('takes accumulators set by hand at once, and hands them to ingest as the base of the next position', async () => {
    expect(
      (await h.call(testUsers.admin, 'PUT', `/api/devices/${truck.id}/accumulators`, { deviceId: truck.id, totalDistance: 100_000_000 }))
        .statusCode,
    ).toBe(204);
    const oilNow = (await h.call(testUsers.admin, 'GET', `/api/maintenance-schedule?deviceId=${truck.id}`))
      .json<MaintenanceDue[]>()
      .find((d) => d.type === 'totalDistance')!;
    expect([oilNow.current, oilNow.nextDue]).toEqual([100_000_000, 110_000_000]);
    expect(JSON.parse((await h.adapters.cache.get(cacheKeys.accumulatorsSet(truck.id)))!)).toMatchObject({
      totalDistance: 100_000_000,
      setAt: expect.any(Number),
    });
    // the device's next positions, as ingest makes them: 2 km on from the value set
    const later = new Date(Date.now() + 60_000).toISOString();
    await h.adapters.cache.set(
      cacheKeys.latestPosition(truck.id),
      JSON.stringify(
        position(truck, { id: positionId(truck.id, later), fixTime: later, serverTime: later, attributes: { totalDistance: 102_000_000 } }),
      ),
    );
    const oil = (await h.call(testUsers.admin, 'GET', `/api/maintenance-schedule?deviceId=${truck.id}`))
      .json<MaintenanceDue[]>()
      .find((d) => d.type === 'totalDistance')!;
    expect([oil.current, oil.nextDue]).toEqual([102_000_000, 110_000_000]);
  });
});

describe('computed attribute test', () => {
  const test = (body: Record<string, unknown>, deviceId = truck.id, user = dispatcherOf(101)) =>
    h.call(user, 'POST', `/api/attributes/computed/test?deviceId=${deviceId}`, { description: 'test', attribute: 'x', ...body });

  it('evaluates arithmetic, comparisons and ternaries on the latest position, typed as asked', async () => {
    await h.adapters.cache.set(
      cacheKeys.latestPosition(truck.id),
      JSON.stringify(position(truck, { speed: 48.6, ignition: true, attributes: { fuel: 210.5, io239: 1 } })),
    );
    const value = async (expression: string, type: string) => {
      const res = await test({ expression, type });
      if (res.statusCode === 204) return null; // Traccar's answer when the expression yields nothing
      expect(res.statusCode, res.body).toBe(200);
      return res.json<ComputedTestResult>();
    };
    expect(await value('speed * 1.852', 'Number')).toBeCloseTo(90.0072, 4);
    expect(await value('fuel / 2 + 1', 'Number')).toBe(106.25);
    expect(await value('speed * 1.852 > 80 ? "overspeed" : "ok"', 'String')).toBe('overspeed');
    expect(await value('ignition && io239 == 1', 'Boolean')).toBe(true);
    expect(await value('attributes.fuel < 100', 'Boolean')).toBe(false);
    expect(await value('speed', 'String')).toBe('48.6');
    expect(await value('noSuchAttribute', 'Number')).toBeNull();
  });

  it('rejects code injection and broken expressions with 400 naming expression', async () => {
    for (const expression of [
      'constructor.constructor("return process")()',
      'attributes.__proto__',
      'attributes["constructor"]',
      'attributes[name]',
      'this.constructor',
      'process.exit(1)',
      'speed|eval',
      'speed = 1',
      '"a" + ',
      'attributes.prototype',
    ])
      expect400(await test({ expression, type: 'String' }), 'expression');
  });

  it("answers 404 without a position or for another company's device, 403 to read-only roles", async () => {
    expectError(await test({ expression: 'speed', type: 'Number' }, silent.id), 404, 'NOT_FOUND');
    expectError(await test({ expression: 'speed', type: 'Number' }, other.id), 404, 'NOT_FOUND');
    expectError(await test({ expression: 'speed', type: 'Number' }, truck.id, testUsers.companyA), 403, 'FORBIDDEN');
    const tz = await test({ expression: 'speed > 10', type: 'Boolean' }, other.id, testUsers.admin);
    expect(tz.json<ComputedTestResult>()).toBe(true);
  });
});
