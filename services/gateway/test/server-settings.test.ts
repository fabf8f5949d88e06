import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServerInfo } from '@corridor/contracts';
import { cacheKeys } from '@corridor/platform';
import { audit } from '../src/audit/audit';
import { createUser, startGateway, tokenFor, type Harness } from './harness';

/**
 * GET /server (public), PUT /server (administrators; stored, audited, read back by everyone, the
 * server's own fields kept) and GET /server/timezones, as Traccar's clients use them.
 */
let h: Harness;
let admin: { authorization: string };
let dispatcher: { authorization: string };
const inject = (opts: InjectOptions) => h.gateway.app.inject(opts);

beforeAll(async () => {
  h = await startGateway();
  admin = { authorization: `Bearer ${await tokenFor(h, 1)}` };
  dispatcher = { authorization: `Bearer ${await tokenFor(h, (await createUser(h, ['dispatcher'], 101)).id)}` };
}, 120_000);
afterAll(async () => {
  await h?.close();
});

describe('server settings', () => {
  it('are readable before sign-in, changed by an administrator only, and read back as stored', async () => {
    const before = (await inject({ method: 'GET', url: '/api/server' })).json<ServerInfo>();
    // a Traccar client PUTs back the whole Server it read, with its changes
    const body = {
      ...before,
      map: 'https://tiles.example/style.json',
      latitude: -6.8,
      longitude: 39.28,
      zoom: 8,
      attributes: { timezone: 'Africa/Dar_es_Salaam' },
      version: 'x',
      id: 7,
    };
    expect((await inject({ method: 'PUT', url: '/api/server', headers: dispatcher, payload: body })).statusCode).toBe(403);
    expect((await inject({ method: 'PUT', url: '/api/server', payload: body })).statusCode).toBe(401);
    const put = await inject({ method: 'PUT', url: '/api/server', headers: admin, payload: body });
    expect(put.statusCode, put.body).toBe(200);
    const after = (await inject({ method: 'GET', url: '/api/server' })).json<ServerInfo>();
    expect(after).toEqual(put.json());
    expect(after).toMatchObject({
      id: 1,
      version: before.version,
      map: body.map,
      latitude: -6.8,
      longitude: 39.28,
      zoom: 8,
      attributes: body.attributes,
    });
    const [entry] = await audit.forEntity(h.adapters.db.orm, 'server', 1);
    expect(entry).toMatchObject({ action: 'server.update', actorUserId: 1 });
    // the attributes are published for ops-api's device events (server-level speedLimit and the like)
    expect(JSON.parse((await h.adapters.cache.get(cacheKeys.serverAttributes()))!)).toEqual([body.attributes]);
  });

  it('refuses a bad position or zoom with 400 naming the field', async () => {
    const res = await inject({ method: 'PUT', url: '/api/server', headers: admin, payload: { latitude: 91, longitude: 0, zoom: 3 } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('latitude');
  });

  it('lists the IANA time zones for signed-in users', async () => {
    const zones = (await inject({ method: 'GET', url: '/api/server/timezones', headers: dispatcher })).json<string[]>();
    expect(zones).toEqual(expect.arrayContaining(['UTC', 'Africa/Nairobi', 'Africa/Dar_es_Salaam', 'Africa/Kampala']));
    expect((await inject({ method: 'GET', url: '/api/server/timezones' })).statusCode).toBe(401);
  });

  it("answers Traccar's GET /health with a plain OK, without signing in", async () => {
    const res = await inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain/);
    expect(res.body).toBe('OK');
  });
});
