import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Permission } from '@corridor/contracts';
import { audit } from '../src/audit/audit';
import { createUser, startGateway, tokenFor, type Harness } from './harness';
import { knownObjects } from './known-objects';

/** /api/permissions: Traccar-style links with exactly two ids. */
let h: Harness;
let admin: { authorization: string };
let known: Awaited<ReturnType<typeof knownObjects>>;
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  known = await knownObjects({ devices: [5, 8, 9, 77], groups: [3], geofences: [16] });
  h = await startGateway({ env: known.env });
  await known.seed(h.adapters.cache);
  admin = { authorization: `Bearer ${await tokenFor(h, 1)}` };
});
afterAll(async () => {
  await h?.close();
  await known?.close();
});

describe('permissions', () => {
  it('links, lists (0 = any), refuses a duplicate (409), unlinks (404 when absent), and audits', async () => {
    const u = await createUser(h, ['company_user'], 101);
    for (const p of [
      { userId: u.id, deviceId: 8 },
      { userId: u.id, deviceId: 9 },
      { userId: u.id, groupId: 3 },
      { userId: u.id, geofenceId: 16 },
    ]) {
      const res = await inject({ method: 'POST', url: '/api/permissions', headers: admin, payload: p });
      expect(res.statusCode, res.body).toBe(204);
    }
    const devices = await inject({ method: 'GET', url: `/api/permissions?userId=${u.id}&deviceId=0`, headers: admin });
    expect(devices.statusCode, devices.body).toBe(200);
    expect(devices.json<Permission[]>()).toEqual([
      { userId: u.id, deviceId: 8 },
      { userId: u.id, deviceId: 9 },
    ]);
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=0&geofenceId=16', headers: admin })).json()).toEqual([
      { userId: u.id, geofenceId: 16 },
    ]);
    expect((await inject({ method: 'GET', url: `/api/permissions?userId=0&deviceId=9`, headers: admin })).json()).toEqual([
      { userId: u.id, deviceId: 9 },
    ]);
    expect(
      (await inject({ method: 'GET', url: `/api/permissions?userId=${u.id}&deviceId=0&limit=1&offset=1`, headers: admin })).json(),
    ).toEqual([{ userId: u.id, deviceId: 9 }]);

    const dup = await inject({ method: 'POST', url: '/api/permissions', headers: admin, payload: { deviceId: 8, userId: u.id } });
    expect(dup.statusCode).toBe(409);
    expect(
      (await inject({ method: 'DELETE', url: '/api/permissions', headers: admin, payload: { userId: u.id, deviceId: 8 } })).statusCode,
    ).toBe(204);
    expect(
      (await inject({ method: 'DELETE', url: '/api/permissions', headers: admin, payload: { userId: u.id, deviceId: 8 } })).statusCode,
    ).toBe(404);
    const trail = await audit.forEntity(h.adapters.db.orm, 'permission', 1);
    expect(trail.map((r) => r.action)).toEqual(['permission.unlink', 'permission.link']);
  });

  it('answers 400 unless exactly two ids form a link, and 404 for an unknown user', async () => {
    const cases: [unknown, RegExp][] = [
      [{ userId: 1 }, /exactly two/],
      [{ userId: 1, deviceId: 2, groupId: 3 }, /exactly two/],
      [{ deviceId: 2, groupId: 3 }, /not a link/],
      // calendars link to users only (Traccar)
      [{ deviceId: 1, calendarId: 2 }, /not a link/],
      [{ userId: -1, deviceId: 2 }, /userId|>/],
    ];
    for (const [payload, message] of cases) {
      const res = await inject({ method: 'POST', url: '/api/permissions', headers: admin, payload: payload as object });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(res.json()), JSON.stringify(payload)).toMatch(message);
    }
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=1', headers: admin })).statusCode).toBe(400);
    expect(
      (await inject({ method: 'POST', url: '/api/permissions', headers: admin, payload: { userId: 999999, deviceId: 8 } })).statusCode,
    ).toBe(404);
  });

  it('answers 404 like an unknown user for a device, group or geofence that does not exist, linking or unlinking (issue 11)', async () => {
    const u = await createUser(h, ['company_user'], 101);
    const cases: [object, string][] = [
      [{ userId: u.id, deviceId: 4242 }, 'Device 4242'],
      [{ userId: u.id, groupId: 4242 }, 'Group 4242'],
      [{ userId: u.id, geofenceId: 4242 }, 'Geofence 4242'],
      [{ deviceId: 4242, geofenceId: 16 }, 'Device 4242'],
      [{ deviceId: 8, geofenceId: 4242 }, 'Geofence 4242'],
    ];
    for (const method of ['POST', 'DELETE'] as const) {
      for (const [payload, what] of cases) {
        const res = await inject({ method, url: '/api/permissions', headers: admin, payload });
        expect(res.statusCode, `${method} ${JSON.stringify(payload)}`).toBe(404);
        expect(res.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: `${what} not found` } });
      }
    }
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=0&deviceId=4242', headers: admin })).statusCode).toBe(404);
    expect((await inject({ method: 'GET', url: `/api/permissions?userId=${u.id}&deviceId=0`, headers: admin })).json()).toEqual([]);
  });

  it("drops a deleted user's links", async () => {
    const u = await createUser(h, ['company_user'], 101);
    await inject({ method: 'POST', url: '/api/permissions', headers: admin, payload: { userId: u.id, deviceId: 77 } });
    expect((await inject({ method: 'DELETE', url: `/api/users/${u.id}`, headers: admin })).statusCode).toBe(204);
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=0&deviceId=77', headers: admin })).json()).toEqual([]);
  });

  it('lets only administrators link (officers read; company users neither)', async () => {
    const officer = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['association_officer'])).id)}` };
    const company = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['company_user'], 101)).id)}` };
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=0&deviceId=0', headers: officer })).statusCode).toBe(200);
    expect(
      (await inject({ method: 'POST', url: '/api/permissions', headers: officer, payload: { userId: 1, deviceId: 5 } })).statusCode,
    ).toBe(403);
    expect((await inject({ method: 'GET', url: '/api/permissions?userId=0&deviceId=0', headers: company })).statusCode).toBe(403);
  });
});
