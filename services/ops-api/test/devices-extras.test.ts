import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeviceRegistryMessage,
  Topics,
  type Device,
  type DeviceConfiguration,
  type PositionMessageInput,
  positionId,
} from '@corridor/contracts';
import { cacheKeys, type ConsumedMessage, type Subscription } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { audit } from '../src/audit/audit';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';
import { eventually } from '@corridor/platform/testing/eventually';

/** Bulk device writes, per-device configuration and accumulators; device changes stay in the registry (cache + devices.v1). */
let h: Harness;
let sub: Subscription;
const registry: DeviceRegistryMessage[] = [];
beforeAll(async () => {
  h = await startHarness();
  sub = await h.adapters.bus.subscribe({
    groupId: 'devices-extras-test',
    topics: [Topics.devices],
    fromBeginning: true,
    handler: async (msgs: ConsumedMessage[]) => {
      for (const m of msgs) registry.push(DeviceRegistryMessage.parse(JSON.parse(m.value)));
    },
  });
});
afterAll(async () => {
  await sub?.stop();
  await h?.close();
});

const cached = async (uniqueId: string) => {
  const v = await h.adapters.cache.get(cacheKeys.deviceByUniqueId(uniqueId));
  return v ? DeviceRegistryMessage.parse(JSON.parse(v)) : null;
};

describe('bulk devices', () => {
  it('creates many at once, each in the registry cache and on devices.v1', async () => {
    const res = await h.call(testUsers.admin, 'POST', '/api/devices/bulk', {
      devices: [
        { name: 'KCA 001A', uniqueId: '861001000000001', companyId: 101 },
        { name: 'KCA 002A', uniqueId: '861001000000002', companyId: 101 },
        { name: 'T 003 ABC', uniqueId: '861001000000003', companyId: 202 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json<Device[]>();
    expect(created.map((d) => d.uniqueId)).toEqual(['861001000000001', '861001000000002', '861001000000003']);
    for (const d of created) expect(await cached(d.uniqueId)).toMatchObject({ id: d.id, companyId: d.companyId, deleted: false });
    await eventually('the created devices on devices.v1', () => created.every((d) => registry.some((m) => m.id === d.id && !m.deleted)));
  });

  it('creates nothing when one uniqueId is taken or repeated (409 naming it)', async () => {
    const taken = await h.call(testUsers.admin, 'POST', '/api/devices/bulk', {
      devices: [
        { name: 'new', uniqueId: '861001000000010' },
        { name: 'dup', uniqueId: '861001000000001' },
      ],
    });
    expectError(taken, 409, 'CONFLICT');
    expect(taken.body).toContain('861001000000001');
    const repeated = await h.call(testUsers.admin, 'POST', '/api/devices/bulk', {
      devices: [
        { name: 'a', uniqueId: '861001000000011' },
        { name: 'b', uniqueId: '861001000000011' },
      ],
    });
    expectError(repeated, 409, 'CONFLICT');
    const none = await h.call(testUsers.admin, 'GET', '/api/devices?uniqueId=861001000000010&uniqueId=861001000000011');
    expect(none.json()).toEqual([]);
    expect400(
      await h.call(testUsers.admin, 'POST', '/api/devices/bulk', { devices: [{ name: 'x', uniqueId: 'bad id!' }] }),
      'devices.0.uniqueId',
    );
    expect400(await h.call(testUsers.admin, 'POST', '/api/devices/bulk', { devices: [] }), 'devices');
  });

  it('answers a company the same whether a uniqueId is held by another company or by its own; the administrator learns which (issue 23)', async () => {
    // the sweep: a 409 on device create told one company that another had registered an IMEI
    const ours = dispatcherOf(202);
    const mine = await h.call(ours, 'POST', '/api/devices', { name: 'ours', uniqueId: '861001000000201' });
    expect(mine.statusCode, mine.body).toBe(200);
    const theirs = await h.call(dispatcherOf(101), 'POST', '/api/devices', { name: 'theirs', uniqueId: '861001000000202' });
    expect(theirs.statusCode, theirs.body).toBe(200);
    const heldByUs = await h.call(ours, 'POST', '/api/devices', { name: 'again', uniqueId: '861001000000201' });
    const heldByThem = await h.call(ours, 'POST', '/api/devices', { name: 'again', uniqueId: '861001000000202' });
    expectError(heldByThem, 409, 'CONFLICT');
    expect(heldByThem.json()).toEqual(heldByUs.json());
    expect(heldByThem.body).not.toContain('861001000000202');
    const bulkUs = await h.call(ours, 'POST', '/api/devices/bulk', { devices: [{ name: 'a', uniqueId: '861001000000201' }] });
    const bulkThem = await h.call(ours, 'POST', '/api/devices/bulk', { devices: [{ name: 'a', uniqueId: '861001000000202' }] });
    expectError(bulkThem, 409, 'CONFLICT');
    expect(bulkThem.json()).toEqual(bulkUs.json());
    const admin = await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'x', uniqueId: '861001000000202' });
    expectError(admin, 409, 'CONFLICT');
    expect(admin.body).toContain('uniqueId');
  });

  it("puts a company dispatcher's devices in their company, and refuses another company", async () => {
    const d = dispatcherOf(202);
    const res = await h.call(d, 'POST', '/api/devices/bulk', { devices: [{ name: 'T 004 ABC', uniqueId: '861001000000004' }] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Device[]>()[0]!.companyId).toBe(202);
    // another company answers like an unknown one
    expectError(
      await h.call(d, 'POST', '/api/devices/bulk', { devices: [{ name: 'x', uniqueId: '861001000000005', companyId: 101 }] }),
      404,
      'NOT_FOUND',
    );
  });

  it("updates many at once (new uniqueId re-keys the cache) and refuses other companies' devices", async () => {
    const all = (await h.call(testUsers.admin, 'GET', '/api/devices?keyword=8610010000000')).json<Device[]>();
    const [a, b] = all.filter((d) => d.companyId === 101);
    const res = await h.call(testUsers.admin, 'PUT', '/api/devices/bulk', {
      devices: [
        { id: a!.id, name: 'KCA 001A renamed', uniqueId: a!.uniqueId, companyId: 101 },
        { id: b!.id, name: b!.name, uniqueId: '861001000000099', companyId: 101 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Device[]>().map((d) => d.name)).toEqual(['KCA 001A renamed', b!.name]);
    expect(await cached(b!.uniqueId)).toBeNull();
    expect(await cached('861001000000099')).toMatchObject({ id: b!.id });
    await eventually('the renamed device on devices.v1', () => registry.some((m) => m.id === a!.id && m.name === 'KCA 001A renamed'));

    const missing = await h.call(testUsers.admin, 'PUT', '/api/devices/bulk', {
      devices: [
        { id: a!.id, name: 'should not stick', uniqueId: a!.uniqueId, companyId: 101 },
        { id: 999999, name: 'x', uniqueId: '861001000000098' },
      ],
    });
    expectError(missing, 404, 'NOT_FOUND');
    expect((await h.call(testUsers.admin, 'GET', `/api/devices/${a!.id}`)).json<Device>().name).toBe('KCA 001A renamed');
    expectError(
      await h.call(dispatcherOf(202), 'PUT', '/api/devices/bulk', { devices: [{ id: a!.id, name: 'x', uniqueId: a!.uniqueId }] }),
      404,
      'NOT_FOUND',
    );
  });

  it('deletes many at once (tombstones on devices.v1), or nothing when one id is unknown', async () => {
    const created = (
      await h.call(testUsers.admin, 'POST', '/api/devices/bulk', {
        devices: [
          { name: 'del1', uniqueId: '861001000000021' },
          { name: 'del2', uniqueId: '861001000000022' },
        ],
      })
    ).json<Device[]>();
    const ids = created.map((d) => d.id);
    expectError(await h.call(testUsers.admin, 'DELETE', `/api/devices/bulk?id=${ids[0]}&id=999999`), 404, 'NOT_FOUND');
    expect((await h.call(testUsers.admin, 'GET', `/api/devices/${ids[0]}`)).statusCode).toBe(200);
    const res = await h.call(testUsers.admin, 'DELETE', `/api/devices/bulk?id=${ids[0]}&id=${ids[1]}`);
    expect(res.statusCode, res.body).toBe(204);
    for (const d of created) {
      expectError(await h.call(testUsers.admin, 'GET', `/api/devices/${d.id}`), 404, 'NOT_FOUND');
      expect(await cached(d.uniqueId)).toBeNull();
    }
    await eventually("the deleted devices' tombstones on devices.v1", () =>
      ids.every((id) => registry.some((m) => m.id === id && m.deleted)),
    );
    expectError(await h.call(testUsers.admin, 'DELETE', '/api/devices/bulk'), 400, 'VALIDATION_FAILED');
  });
});

describe('device configuration', () => {
  it("follows a template with overrides on top; another company's template is refused", async () => {
    const dev = (
      await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'cfg', uniqueId: '861001000000031', companyId: 101 })
    ).json<Device>();
    const empty = await h.call(testUsers.companyA, 'GET', `/api/devices/${dev.id}/configuration`);
    expect(empty.json()).toEqual({ deviceId: dev.id, configurationId: null, values: {}, effective: {}, updatedAt: null });
    const template = (
      await h.call(dispatcherOf(101), 'POST', '/api/configurations', { name: 'Highway', values: { interval: 30, apn: 'safaricom' } })
    ).json<{ id: number }>();
    const put = await h.call(dispatcherOf(101), 'PUT', `/api/devices/${dev.id}/configuration`, {
      configurationId: template.id,
      values: { interval: 10 },
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<DeviceConfiguration>()).toMatchObject({
      configurationId: template.id,
      values: { interval: 10 },
      effective: { interval: 10, apn: 'safaricom' },
    });
    expect((await h.call(testUsers.companyA, 'GET', `/api/devices/${dev.id}/configuration`)).json<DeviceConfiguration>().effective).toEqual(
      { interval: 10, apn: 'safaricom' },
    );
    expectError(await h.call(testUsers.companyB, 'GET', `/api/devices/${dev.id}/configuration`), 404, 'NOT_FOUND');
    expectError(await h.call(dispatcherOf(202), 'PUT', `/api/devices/${dev.id}/configuration`, { values: {} }), 404, 'NOT_FOUND');
    const foreign = (await h.call(dispatcherOf(202), 'POST', '/api/configurations', { name: 'TZ', values: {} })).json<{ id: number }>();
    expect400(
      await h.call(testUsers.admin, 'PUT', `/api/devices/${dev.id}/configuration`, { configurationId: foreign.id }),
      'configurationId',
    );
    expectError(await h.call(dispatcherOf(101), 'DELETE', `/api/configurations/${template.id}`), 409, 'CONFLICT');
    const trail = await audit.forEntity(h.adapters.db.orm, 'device', dev.id);
    expect(trail.map((a) => a.action)).toContain('device.configuration.set');
  });
});

describe('accumulators', () => {
  it('sets odometer and hours from the latest reading on (204), auditing it', async () => {
    const dev = (
      await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'acc', uniqueId: '861001000000041', companyId: 101 })
    ).json<Device>();
    const position: PositionMessageInput = {
      id: positionId(dev.id, 1767225600000),
      deviceId: dev.id,
      uniqueId: dev.uniqueId,
      protocol: 'gt06',
      fixTime: '2026-01-01T00:00:00Z',
      serverTime: '2026-01-01T00:00:01Z',
      valid: true,
      latitude: -4.05,
      longitude: 39.66,
      speed: 0,
      course: 0,
      odometer: 5000,
      attributes: { hours: 3600000 },
    };
    await h.adapters.cache.set(cacheKeys.latestPosition(dev.id), JSON.stringify(position));
    const res = await h.call(dispatcherOf(101), 'PUT', `/api/devices/${dev.id}/accumulators`, {
      deviceId: dev.id,
      totalDistance: 120000000,
      hours: 7200000,
    });
    expect(res.statusCode, res.body).toBe(204);
    const trail = await audit.forEntity(h.adapters.db.orm, 'device', dev.id);
    expect(trail[0]).toMatchObject({ action: 'device.accumulators.set', after: { totalDistance: 120000000, hours: 7200000 } });
    const another = (await h.call(testUsers.admin, 'GET', '/api/devices')).json<Device[]>().find((x) => x.id !== dev.id)!;
    expect400(await h.call(testUsers.admin, 'PUT', `/api/devices/${dev.id}/accumulators`, { deviceId: another.id, hours: 1 }), 'deviceId');
    expect400(await h.call(testUsers.admin, 'PUT', `/api/devices/${dev.id}/accumulators`, { deviceId: dev.id }), 'totalDistance');
    expect400(await h.call(testUsers.admin, 'PUT', `/api/devices/${dev.id}/accumulators`, { deviceId: dev.id, hours: -1 }), 'hours');
    expectError(
      await h.call(dispatcherOf(202), 'PUT', `/api/devices/${dev.id}/accumulators`, { deviceId: dev.id, hours: 1 }),
      404,
      'NOT_FOUND',
    );
    expectError(
      await h.call(testUsers.companyA, 'PUT', `/api/devices/${dev.id}/accumulators`, { deviceId: dev.id, hours: 1 }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('single device writes keep company scoping', () => {
  it('a dispatcher cannot move a device into or out of another company', async () => {
    const d = dispatcherOf(101);
    const mine = (await h.call(d, 'POST', '/api/devices', { name: 'mine', uniqueId: '861001000000051' })).json<Device>();
    expect(mine.companyId).toBe(101);
    // another company answers like an unknown one
    expectError(
      await h.call(d, 'PUT', `/api/devices/${mine.id}`, { name: 'mine', uniqueId: mine.uniqueId, companyId: 202 }),
      404,
      'NOT_FOUND',
    );
    const theirs = (
      await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'theirs', uniqueId: '861001000000052', companyId: 202 })
    ).json<Device>();
    expectError(await h.call(d, 'PUT', `/api/devices/${theirs.id}`, { name: 'taken', uniqueId: theirs.uniqueId }), 404, 'NOT_FOUND');
  });
});
