import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DeviceRegistryMessage,
  type Device,
  type InventoryHistoryEntry,
  type InventoryItem,
  type InventoryStatus,
  type TruckOwner,
  type TruckWithOwner,
} from '@corridor/contracts';
import { cacheKeys } from '@corridor/platform';
import { testUsers } from '@corridor/platform/testing/identity';
import { audit } from '../src/audit/audit';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';

/** Inventories (assign, revoke, transfer with history and audit; the device follows) and trucks with their owners. */
let h: Harness;
let seq = 0;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => h?.close());

const officer = testUsers.officer;
async function device(): Promise<Device> {
  const uid = `86200000000${String(++seq).padStart(4, '0')}`;
  const res = await h.call(testUsers.admin, 'POST', '/api/devices', { name: `unit ${seq}`, uniqueId: uid });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Device>();
}
async function stock(): Promise<{ device: Device; item: InventoryItem }> {
  const d = await device();
  const res = await h.call(officer, 'POST', '/api/inventories', { deviceId: d.id, serialNumber: `SN-${d.id}`, notes: 'batch March' });
  expect(res.statusCode, res.body).toBe(200);
  return { device: d, item: res.json<InventoryItem>() };
}
async function owner(by = dispatcherOf(101), plates = ['KCB 201B']): Promise<TruckOwner> {
  const res = await h.call(by, 'POST', '/api/truck-owners', {
    name: `Owner ${++seq}`,
    phone: '+254700000001',
    trucks: plates.map((plateNumber) => ({ plateNumber })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TruckOwner>();
}
const devCompany = async (d: Device) => (await h.call(testUsers.admin, 'GET', `/api/devices/${d.id}`)).json<Device>().companyId;

describe('inventory decisions', () => {
  it('assign → transfer → revoke → assign, each with a history row, an audit entry, and the device following', async () => {
    const { device: d, item } = await stock();
    expect(item).toMatchObject({ status: 'in_stock', companyId: null, truckId: null });
    const o = await owner(dispatcherOf(101), [`KCC ${100 + seq}C`]);
    const truckA = o.trucks[0]!.id;

    const assigned = await h.call(officer, 'POST', `/api/inventories/${item.id}/assign`, {
      companyId: 101,
      truckId: truckA,
      reason: 'contract 2026-14',
    });
    expect(assigned.statusCode, assigned.body).toBe(200);
    expect(assigned.json<InventoryItem>()).toMatchObject({ status: 'assigned', companyId: 101, truckId: truckA });
    expect(await devCompany(d)).toBe(101);
    const reg = DeviceRegistryMessage.parse(JSON.parse((await h.adapters.cache.get(cacheKeys.deviceByUniqueId(d.uniqueId)))!));
    expect(reg.companyId).toBe(101);
    const trucks = (await h.call(dispatcherOf(101), 'GET', `/api/trucks-owners?deviceId=${d.id}`)).json<TruckWithOwner[]>();
    expect(trucks.map((t) => t.id)).toEqual([truckA]);

    // company A sees its item; company B does not
    expect((await h.call(testUsers.companyA, 'GET', `/api/inventories/${item.id}`)).statusCode).toBe(200);
    expectError(await h.call(testUsers.companyB, 'GET', `/api/inventories/${item.id}`), 404, 'NOT_FOUND');
    expectError(await h.call(testUsers.companyB, 'GET', `/api/inventories/${item.id}/history`), 404, 'NOT_FOUND');

    const o2 = await owner(dispatcherOf(202), [`T ${100 + seq} ABC`]);
    expect400(
      await h.call(officer, 'POST', `/api/inventories/${item.id}/transfer`, { toCompanyId: 202, truckId: truckA, reason: 'sold' }),
      'truckId',
    );
    expect400(await h.call(officer, 'POST', `/api/inventories/${item.id}/transfer`, { toCompanyId: 101, reason: 'same' }), 'toCompanyId');
    expectError(
      await h.call(officer, 'POST', `/api/inventories/${item.id}/transfer`, { toCompanyId: 999, reason: 'ghost' }),
      404,
      'NOT_FOUND',
    );
    expect400(await h.call(officer, 'POST', `/api/inventories/${item.id}/transfer`, { toCompanyId: 202 }), 'reason');
    const transferred = await h.call(officer, 'POST', `/api/inventories/${item.id}/transfer`, {
      toCompanyId: 202,
      truckId: o2.trucks[0]!.id,
      reason: 'fleet sold to Msasani',
    });
    expect(transferred.statusCode, transferred.body).toBe(200);
    expect(transferred.json<InventoryItem>()).toMatchObject({ status: 'assigned', companyId: 202, truckId: o2.trucks[0]!.id });
    expect(await devCompany(d)).toBe(202);
    expect((await h.call(testUsers.companyB, 'GET', `/api/inventories/${item.id}`)).statusCode).toBe(200);
    expectError(await h.call(testUsers.companyA, 'GET', `/api/inventories/${item.id}`), 404, 'NOT_FOUND');
    expect((await h.call(testUsers.admin, 'GET', `/api/truck-owners/${o.id}`)).json<TruckOwner>().trucks[0]!.deviceId).toBeNull();

    const revoked = await h.call(officer, 'POST', `/api/inventories/${item.id}/revoke`, { reason: 'unpaid lease' });
    expect(revoked.json<InventoryItem>()).toMatchObject({ status: 'revoked', companyId: null, truckId: null });
    expect(await devCompany(d)).toBeNull();

    expect((await h.call(officer, 'POST', `/api/inventories/${item.id}/assign`, { companyId: 101 })).statusCode).toBe(200);

    const history = (await h.call(testUsers.admin, 'GET', `/api/inventories/${item.id}/history`)).json<InventoryHistoryEntry[]>();
    expect(history.map((e) => [e.action, e.fromCompanyId, e.toCompanyId])).toEqual([
      ['assigned', null, 101],
      ['revoked', 202, null],
      ['transferred', 101, 202],
      ['assigned', null, 101],
      ['created', null, null],
    ]);
    expect(history[2]).toMatchObject({ reason: 'fleet sold to Msasani', actorUserId: officer.userId, fromTruckId: truckA });
    const trail = await audit.forEntity(h.adapters.db.orm, 'inventory', item.id);
    expect(trail.map((a) => a.action)).toEqual([
      'inventory.assign',
      'inventory.revoke',
      'inventory.transfer',
      'inventory.assign',
      'inventory.create',
    ]);
    expect(trail[2]!.reason).toBe('fleet sold to Msasani');
  });

  // every state against every decision: allowed ones succeed, the rest answer 409 with the allowed next decisions
  const reach: Record<InventoryStatus, (id: number) => Promise<void>> = {
    in_stock: async () => undefined,
    assigned: async (id) => void (await h.call(officer, 'POST', `/api/inventories/${id}/assign`, { companyId: 101 })),
    revoked: async (id) => {
      await h.call(officer, 'POST', `/api/inventories/${id}/assign`, { companyId: 101 });
      await h.call(officer, 'POST', `/api/inventories/${id}/revoke`, { reason: 'r' });
    },
  };
  const bodies = { assign: { companyId: 202 }, revoke: { reason: 'r' }, transfer: { toCompanyId: 202, reason: 'r' } };
  const allowed: Record<InventoryStatus, string[]> = { in_stock: ['assign'], assigned: ['revoke', 'transfer'], revoked: ['assign'] };
  for (const state of ['in_stock', 'assigned', 'revoked'] as const) {
    for (const decision of ['assign', 'revoke', 'transfer'] as const) {
      it(`${decision} from ${state}: ${allowed[state].includes(decision) ? 'allowed' : '409'}`, async () => {
        const { item } = await stock();
        await reach[state](item.id);
        const res = await h.call(officer, 'POST', `/api/inventories/${item.id}/${decision}`, bodies[decision]);
        if (allowed[state].includes(decision)) expect(res.statusCode, res.body).toBe(200);
        else {
          expectError(res, 409, 'INVALID_TRANSITION');
          expect(res.json<{ error: { details: unknown } }>().error.details).toEqual({ current: state, allowed: allowed[state] });
          const done = { assign: 'assigned', revoke: 'revoked', transfer: 'transferred' }[decision]; // never "revokeed"
          expect(res.json<{ error: { message: string } }>().error.message).toBe(`An item ${state.replace('_', ' ')} cannot be ${done}`);
        }
      });
    }
  }

  it('keeps decisions to the association, one item per device, and no delete while assigned', async () => {
    const { device: d, item } = await stock();
    expectError(await h.call(dispatcherOf(101), 'POST', `/api/inventories/${item.id}/assign`, { companyId: 101 }), 403, 'FORBIDDEN');
    expectError(await h.call(testUsers.companyA, 'POST', '/api/inventories', { deviceId: d.id }), 403, 'FORBIDDEN');
    const dup = await h.call(officer, 'POST', '/api/inventories', { deviceId: d.id });
    expectError(dup, 409, 'CONFLICT');
    // unknown ids anywhere in a request answer 404
    expectError(await h.call(officer, 'POST', '/api/inventories', { deviceId: 999999 }), 404, 'NOT_FOUND');
    expectError(await h.call(officer, 'POST', `/api/inventories/${item.id}/assign`, { companyId: 101, truckId: 999999 }), 404, 'NOT_FOUND');
    expect400(await h.call(officer, 'POST', `/api/inventories/${item.id}/revoke`, {}), 'reason');
    expectError(await h.call(officer, 'POST', '/api/inventories/999999/assign', { companyId: 101 }), 404, 'NOT_FOUND');
    await h.call(officer, 'POST', `/api/inventories/${item.id}/assign`, { companyId: 101 });
    expectError(await h.call(officer, 'DELETE', `/api/inventories/${item.id}`), 409, 'INVALID_TRANSITION');
    const edited = await h.call(officer, 'PUT', `/api/inventories/${item.id}`, { deviceId: d.id, serialNumber: 'SN-NEW', notes: null });
    expect(edited.json<InventoryItem>()).toMatchObject({ serialNumber: 'SN-NEW', status: 'assigned', companyId: 101 });
    const byStatus = (await h.call(testUsers.analyst, 'GET', '/api/inventories?status=assigned&companyId=101&limit=1000')).json<
      InventoryItem[]
    >();
    expect(byStatus.some((i) => i.id === item.id)).toBe(true);
    expect((await h.call(testUsers.companyA, 'GET', '/api/inventories?keyword=SN-NEW')).json<InventoryItem[]>().map((i) => i.id)).toEqual([
      item.id,
    ]);
    await h.call(officer, 'POST', `/api/inventories/${item.id}/revoke`, { reason: 'done' });
    expect((await h.call(officer, 'DELETE', `/api/inventories/${item.id}`)).statusCode).toBe(204);
    expectError(await h.call(officer, 'GET', `/api/inventories/${item.id}`), 404, 'NOT_FOUND');
  });
});

describe('truck owners and trucks', () => {
  it('creates an owner with trucks, replaces the truck list, and lists trucks with owners', async () => {
    const d = dispatcherOf(101);
    const dev = (await h.call(d, 'POST', '/api/devices', { name: 'truck tracker', uniqueId: '862000000009001' })).json<Device>();
    const created = await h.call(d, 'POST', '/api/truck-owners', {
      name: 'Kamau Transporters',
      idNumber: 'PVT-XY12',
      email: 'ops@kamau.test',
      trucks: [
        { plateNumber: 'kbz 123a', make: 'Scania', model: 'R450', year: 2019, deviceId: dev.id },
        { plateNumber: 'KBZ-124A', trailerPlate: 'ZD 1234' },
      ],
    });
    expect(created.statusCode, created.body).toBe(200);
    const o = created.json<TruckOwner>();
    expect(o.trucks.map((t) => t.plateNumber)).toEqual(['KBZ123A', 'KBZ124A']);
    expect(o.companyId).toBe(101);
    const [t1, t2] = o.trucks;

    const replaced = await h.call(d, 'PUT', `/api/truck-owners/${o.id}`, {
      name: 'Kamau Transporters Ltd',
      trucks: [{ id: t1!.id, plateNumber: 'KBZ 123A', make: 'Scania', deviceId: null }, { plateNumber: 'KBZ 125A' }],
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const after = replaced.json<TruckOwner>();
    expect(after.trucks.map((t) => t.plateNumber)).toEqual(['KBZ123A', 'KBZ125A']);
    expect(after.trucks[0]!.id).toBe(t1!.id);
    expect(after.trucks.some((t) => t.id === t2!.id)).toBe(false);

    const list = (await h.call(testUsers.companyA, 'GET', '/api/trucks-owners?keyword=KBZ12')).json<TruckWithOwner[]>();
    expect(list.map((t) => [t.plateNumber, t.owner.name])).toEqual([
      ['KBZ123A', 'Kamau Transporters Ltd'],
      ['KBZ125A', 'Kamau Transporters Ltd'],
    ]);
    expect((await h.call(testUsers.companyB, 'GET', '/api/trucks-owners?keyword=KBZ12')).json()).toEqual([]);
    expect((await h.call(testUsers.companyA, 'GET', '/api/truck-owners?keyword=Kamau')).json<TruckOwner[]>().map((x) => x.id)).toEqual([
      o.id,
    ]);
    expectError(await h.call(testUsers.companyB, 'GET', `/api/truck-owners/${o.id}`), 404, 'NOT_FOUND');

    const plate = await h.call(dispatcherOf(202), 'POST', '/api/truck-owners', { name: 'Copycat', trucks: [{ plateNumber: 'KBZ123A' }] });
    expectError(plate, 409, 'CONFLICT');
    expect400(
      await h.call(d, 'POST', '/api/truck-owners', { name: 'Twice', trucks: [{ plateNumber: 'KDA 1A' }, { plateNumber: 'kda1a' }] }),
      'trucks.1.plateNumber',
    );
    expect400(await h.call(d, 'POST', '/api/truck-owners', { name: 'Bad', trucks: [{ plateNumber: '!' }] }), 'trucks.0.plateNumber');
    expectError(
      await h.call(d, 'PUT', `/api/truck-owners/${o.id}`, { name: 'x', trucks: [{ id: 999999, plateNumber: 'KDB 1B' }] }),
      404,
      'NOT_FOUND',
    );
    const foreignDevice = (
      await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'tz', uniqueId: '862000000009002', companyId: 202 })
    ).json<Device>();
    // another company's device answers like an unknown one
    expectError(
      await h.call(d, 'POST', '/api/truck-owners', { name: 'Bad', trucks: [{ plateNumber: 'KDC 1C', deviceId: foreignDevice.id }] }),
      404,
      'NOT_FOUND',
    );
    expect400(await h.call(d, 'POST', '/api/truck-owners', { name: 'Bad', email: 'not-an-email' }), 'email');

    // a truck carrying an assigned inventory item cannot be dropped, nor its owner deleted
    const { item } = await stock();
    await h.call(officer, 'POST', `/api/inventories/${item.id}/assign`, { companyId: 101, truckId: t1!.id });
    expectError(await h.call(d, 'PUT', `/api/truck-owners/${o.id}`, { name: 'x', trucks: [] }), 409, 'CONFLICT');
    expectError(await h.call(d, 'DELETE', `/api/truck-owners/${o.id}`), 409, 'CONFLICT');
    await h.call(officer, 'POST', `/api/inventories/${item.id}/revoke`, { reason: 'moved' });
    expect((await h.call(d, 'DELETE', `/api/truck-owners/${o.id}`)).statusCode).toBe(204);
    expect((await h.call(d, 'GET', '/api/trucks-owners?keyword=KBZ12')).json()).toEqual([]);
    const trail = await audit.forEntity(h.adapters.db.orm, 'truck_owner', o.id);
    expect(trail.map((a) => a.action)).toEqual(['truck_owner.delete', 'truck_owner.update', 'truck_owner.create']);
  });
});
