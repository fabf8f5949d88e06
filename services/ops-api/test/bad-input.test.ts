import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device } from '@corridor/contracts';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import { startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';

/**
 * Issue 11's fuzz findings on ops-api (server errors from bad input), each now a 4xx in the shared
 * shape: ids beyond the database's integer range (2^31 .. 2^53), NUL in text, \u0000 inside JSON
 * attributes. On the primary adapters: the real PostgreSQL in CI, where these reached the database.
 */
let h: Harness;
let device: Device;
beforeAll(async () => {
  h = await startHarness();
  const res = await h.call(testUsers.admin, 'POST', '/api/devices', {
    name: 'Bad input truck',
    uniqueId: '356307042449999',
    companyId: 101,
  });
  expect(res.statusCode, res.body).toBe(200);
  device = res.json<Device>();
});
afterAll(async () => h?.close());

describe('ids beyond the database integer range', () => {
  it('GET /devices/3000000000 answers 400 naming the id, not 500', async () => {
    for (const id of ['3000000000', '2147483648', String(2 ** 53 - 1)])
      expect400(await h.call(testUsers.admin, 'GET', `/api/devices/${id}`), 'id');
    expectError(await h.call(testUsers.admin, 'GET', '/api/devices/2147483647'), 404, 'NOT_FOUND');
  });

  it('an id in a query or a body beyond the range answers 400, not 500', async () => {
    expect400(await h.call(testUsers.admin, 'GET', '/api/devices?id=3000000000'), 'id');
    expect400(
      await h.call(testUsers.admin, 'PUT', `/api/devices/${device.id}`, { name: 'x', uniqueId: device.uniqueId, groupId: 3000000000 }),
      'groupId',
    );
    expect400(
      await h.svc.app.inject({
        method: 'PATCH',
        url: '/api/shipments/6293802183/status',
        headers: await asUser(testUsers.admin),
        payload: { status: 'draft' },
      }),
      'shipmentId',
    );
  });
});

describe('NUL in text', () => {
  it('is refused in a body string, a JSON attribute key or value, and a query value (400 naming the field)', async () => {
    expect400(await h.call(testUsers.admin, 'POST', '/api/devices', { name: 'a\u0000b', uniqueId: '356307042448888' }), 'name');
    expect400(
      await h.call(testUsers.admin, 'PUT', `/api/devices/${device.id}`, {
        name: 'x',
        uniqueId: device.uniqueId,
        attributes: { 'key\u0000': 1 },
      }),
      'attributes',
    );
    expect400(
      await h.call(testUsers.admin, 'PUT', `/api/devices/${device.id}`, {
        name: 'x',
        uniqueId: device.uniqueId,
        attributes: { note: 'v\u0000' },
      }),
      'attributes.note',
    );
    expect400(await h.call(testUsers.admin, 'GET', '/api/devices?keyword=a%00b'), 'keyword');
    expect400(
      await h.call(testUsers.admin, 'POST', '/api/drafts', { kind: 'shipment', payload: { nested: ['ok', 'no\u0000'] } }),
      'payload.nested.1',
    );
    // and nothing was stored
    expect((await h.call(testUsers.admin, 'GET', `/api/devices/${device.id}`)).json<Device>().attributes).toEqual({});
  });
});

describe('values no store can hold', () => {
  const post = async (payload: string) =>
    h.svc.app.inject({
      method: 'POST',
      url: '/api/drafts',
      headers: { ...(await asUser(testUsers.admin)), 'content-type': 'application/json' },
      payload,
    });

  it('a draft nested thousands of levels deep answers 400 naming where, not 500 (found by the API fuzz run)', async () => {
    const deep = (n: number) => '{"kind":"shipment","payload":' + '{"a":'.repeat(n) + '1' + '}'.repeat(n) + '}';
    for (const n of [100, 4_500, 50_000]) expect400(await post(deep(n)), 'payload');
    // a nesting a client may well send is kept as sent
    const ok = await post(deep(20));
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('a number beyond a double (1e400) answers 400 instead of being stored as null', async () => {
    expect400(await post('{"kind":"shipment","payload":{"weight":1e400}}'), 'payload.weight');
    expect400(await post('{"kind":"shipment","payload":-1e400}'), 'payload');
  });
});
