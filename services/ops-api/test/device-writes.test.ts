import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics, type Device, type DeviceSessionMessage } from '@corridor/contracts';
import { cacheKeys } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { eventually } from '@corridor/platform/testing/eventually';
import { audit } from '../src/audit/audit';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expectError } from './tracking-expect';

/**
 * Issue 23: device create and delete left no audit entry, and a 409 on create told one company that
 * another had registered an IMEI. Every device write through the API is audited (single and bulk),
 * a company's caller gets one refusal for any uniqueId that cannot be registered, and the protocol
 * a device is bound to is stored from ingest's first `connected` message and can be set or cleared
 * by its administrator (clearing also drops ingest's claim and a JT/T 808 code in the cache).
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await h.svc.start();
});
afterAll(async () => {
  await h?.close();
});

const create = async (who: Parameters<Harness['call']>[0], body: Record<string, unknown>) => {
  const res = await h.call(who, 'POST', '/api/devices', body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Device>();
};

describe('device writes are audited', () => {
  it('create, update and delete, single and bulk, each leave an entry with the actor, before and after', async () => {
    const d = dispatcherOf(101);
    const dev = await create(d, { name: 'KCB 100A', uniqueId: '862000000000100' });
    const put = await h.call(d, 'PUT', `/api/devices/${dev.id}`, { name: 'KCB 100A (trailer)', uniqueId: dev.uniqueId });
    expect(put.statusCode, put.body).toBe(200);
    expect((await h.call(testUsers.admin, 'DELETE', `/api/devices/${dev.id}`)).statusCode).toBe(204);
    const trail = await audit.forEntity(h.adapters.db.orm, 'device', dev.id);
    const byAction = new Map(trail.map((a) => [a.action, a]));
    expect([...byAction.keys()].sort()).toEqual(['device.create', 'device.delete', 'device.update']);
    expect(byAction.get('device.create')).toMatchObject({
      actorUserId: d.userId,
      after: { uniqueId: '862000000000100', companyId: 101, name: 'KCB 100A' },
    });
    expect(byAction.get('device.update')).toMatchObject({
      actorUserId: d.userId,
      before: { name: 'KCB 100A' },
      after: { name: 'KCB 100A (trailer)' },
    });
    expect(byAction.get('device.delete')).toMatchObject({ actorUserId: testUsers.admin.userId, before: { uniqueId: '862000000000100' } });

    const bulk = await h.call(testUsers.admin, 'POST', '/api/devices/bulk', {
      devices: [
        { name: 'b1', uniqueId: '862000000000101' },
        { name: 'b2', uniqueId: '862000000000102' },
      ],
    });
    expect(bulk.statusCode, bulk.body).toBe(200);
    const [b1, b2] = bulk.json<Device[]>();
    expect(
      (await h.call(testUsers.admin, 'PUT', '/api/devices/bulk', { devices: [{ id: b1!.id, name: 'b1 renamed', uniqueId: b1!.uniqueId }] }))
        .statusCode,
    ).toBe(200);
    expect((await h.call(testUsers.admin, 'DELETE', `/api/devices/bulk?id=${b1!.id}&id=${b2!.id}`)).statusCode).toBe(204);
    expect((await audit.forEntity(h.adapters.db.orm, 'device', b1!.id)).map((a) => a.action).sort()).toEqual([
      'device.create',
      'device.delete',
      'device.update',
    ]);
    expect((await audit.forEntity(h.adapters.db.orm, 'device', b2!.id)).map((a) => a.action).sort()).toEqual([
      'device.create',
      'device.delete',
    ]);
  });
});

describe('a uniqueId that cannot be registered', () => {
  it("answers a company's caller the same whether another company or their own holds it", async () => {
    await create(testUsers.admin, { name: 'B truck', uniqueId: '862000000000200', companyId: 202 });
    await create(dispatcherOf(101), { name: 'A truck', uniqueId: '862000000000201' });
    const foreign = await h.call(dispatcherOf(101), 'POST', '/api/devices', { name: 'probe', uniqueId: '862000000000200' });
    const own = await h.call(dispatcherOf(101), 'POST', '/api/devices', { name: 'probe', uniqueId: '862000000000201' });
    expectError(foreign, 409, 'CONFLICT');
    expect(foreign.json()).toEqual(own.json());
    expect(foreign.body).not.toMatch(/exists|another company|202/);
    // in a batch, and when renaming a device onto it
    const mine = await create(dispatcherOf(101), { name: 'A second', uniqueId: '862000000000202' });
    const bulkForeign = await h.call(dispatcherOf(101), 'POST', '/api/devices/bulk', {
      devices: [{ name: 'x', uniqueId: '862000000000200' }],
    });
    const bulkOwn = await h.call(dispatcherOf(101), 'POST', '/api/devices/bulk', { devices: [{ name: 'x', uniqueId: '862000000000201' }] });
    expect(bulkForeign.statusCode).toBe(409);
    expect(bulkForeign.json()).toEqual(bulkOwn.json());
    const renameForeign = await h.call(dispatcherOf(101), 'PUT', `/api/devices/${mine.id}`, {
      name: 'A second',
      uniqueId: '862000000000200',
    });
    const renameOwn = await h.call(dispatcherOf(101), 'PUT', `/api/devices/${mine.id}`, { name: 'A second', uniqueId: '862000000000201' });
    expect(renameForeign.statusCode).toBe(409);
    expect(renameForeign.json()).toEqual(renameOwn.json());
    // an administrator sees every device: the precise reason
    expect((await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'probe', uniqueId: '862000000000200' })).body).toContain(
      'already exists',
    );
  });
});

describe('the protocol a device is bound to', () => {
  const connected = (d: Device, protocol: string, n: number): DeviceSessionMessage => ({
    deviceId: d.id,
    uniqueId: d.uniqueId,
    type: 'connected',
    connectionId: `test:${n}`,
    protocol,
    time: new Date().toISOString(),
  });

  it('is stored from the first connected message and kept after, unless its administrator sets or clears it', async () => {
    const dev = await create(dispatcherOf(202), { name: 'T 300 ABC', uniqueId: '862000000000300' });
    expect(dev.protocol).toBeNull();
    await h.adapters.bus.publish(Topics.deviceStatus, [{ key: String(dev.id), value: connected(dev, 'gt06', 1) }]);
    await eventually(
      'the binding stored',
      async () => (await h.call(testUsers.admin, 'GET', `/api/devices/${dev.id}`)).json<Device>().protocol === 'gt06',
    );
    // a later connection on another protocol (ingest refuses its frames; were one announced) does not move it
    await h.svc.devices.bindProtocols([connected(dev, 'queclink', 2)]);
    expect((await h.call(testUsers.admin, 'GET', `/api/devices/${dev.id}`)).json<Device>().protocol).toBe('gt06');

    // the administrator binds it to JT/T 808 and later clears it: ingest's claim and code go with each change
    await h.adapters.cache.set(cacheKeys.deviceProtocol(dev.id), 'gt06');
    await h.adapters.cache.set(cacheKeys.jt808AuthCode(dev.id), 'hash');
    const set = await h.call(dispatcherOf(202), 'PUT', `/api/devices/${dev.id}`, {
      name: dev.name,
      uniqueId: dev.uniqueId,
      protocol: 'jt808',
    });
    expect(set.json<Device>().protocol).toBe('jt808');
    expect(await h.adapters.cache.get(cacheKeys.deviceProtocol(dev.id))).toBeNull();
    await h.adapters.cache.set(cacheKeys.jt808AuthCode(dev.id), 'hash');
    // a PUT that leaves it out keeps it (Traccar clients send what they read, or less)
    expect(
      (await h.call(dispatcherOf(202), 'PUT', `/api/devices/${dev.id}`, { name: 'renamed', uniqueId: dev.uniqueId })).json<Device>()
        .protocol,
    ).toBe('jt808');
    expect(await h.adapters.cache.get(cacheKeys.jt808AuthCode(dev.id))).toBe('hash');
    const cleared = await h.call(dispatcherOf(202), 'PUT', `/api/devices/${dev.id}`, {
      name: 'renamed',
      uniqueId: dev.uniqueId,
      protocol: null,
    });
    expect(cleared.json<Device>().protocol).toBeNull();
    expect(await h.adapters.cache.get(cacheKeys.jt808AuthCode(dev.id))).toBeNull();
    expect(
      (await audit.forEntity(h.adapters.db.orm, 'device', dev.id)).find(
        (a) => a.action === 'device.update' && (a.after as Device).protocol === null,
      ),
    ).toBeDefined();
  });
});
