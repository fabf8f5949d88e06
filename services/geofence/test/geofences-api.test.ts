import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishGroups, publishUsers, registerDevices } from '@corridor/platform/testing/registry';
import {
  GeofenceDefinitionMessage,
  Topics,
  fastifyPath,
  type DeviceRegistryMessage,
  type Geofence,
  type GeofenceInputBody,
  type GeofenceLink,
} from '@corridor/contracts';
import { cacheKeys, type Identity, type Subscription } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, testUsers, userWith } from '@corridor/platform/testing/identity';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { geofenceEndpoints, type GeofenceService } from '../src/app';
import { audit } from '../src/audit/audit';
import type { LonLat } from '../src/fences/fence';
import { eventually } from '@corridor/platform/testing/eventually';
import { northOf, positionAt, startService } from './harness';

type Page<T> = { items: T[]; total: number; limit: number; offset: number };
interface DwellRow {
  geofenceId: number;
  geofenceName: string | null;
  day: string;
  count: number;
  avgSeconds: number;
  p50Seconds: number;
  p90Seconds: number;
  maxSeconds: number;
}
interface ErrorBody {
  error: { code: string; message: string; details?: { in: string; path: string; code?: string; message: string }[] };
}

const kind = await primaryKind();
let adapters: TestAdapters;
let svc: GeofenceService;
let topicSub: Subscription;
/** latest geofences.v1 value per key, as a consumer of the compacted topic sees it */
const published = new Map<string, GeofenceDefinitionMessage>();

beforeAll(async () => {
  adapters = await createTestAdapters(kind);
  const [started, sub] = await Promise.all([
    startService(adapters),
    adapters.bus.subscribe({
      groupId: 'api-test-observer',
      topics: [Topics.geofences],
      fromBeginning: true,
      handler: async (msgs) => {
        for (const m of msgs) published.set(m.key, GeofenceDefinitionMessage.parse(JSON.parse(m.value)));
      },
    }),
  ]);
  svc = started;
  topicSub = sub;
  // the devices, groups, calendars and users the tests name, as ops-api and the gateway publish them
  await registerDevices(
    adapters.cache,
    [7001, 7101, 7102].map((id) => ({ id, companyId: 101 })),
  );
  await publishGroups(
    adapters.cache,
    [55, 66].map((id) => ({ id, companyId: 101 })),
  );
  await adapters.cache.set(cacheKeys.calendars(), JSON.stringify([{ id: 3, data: '', companyId: null }]));
  await publishUsers(adapters.cache, [{ id: 5, companyId: 101 }]);
});

afterAll(async () => {
  // each Kafka consumer takes up to its fetch wait (5 s) to stop: stop them together
  await Promise.all([svc?.close(), topicSub?.stop()]);
  await adapters?.close();
});

async function call<T = unknown>(
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
  user: Identity = testUsers.dispatcher,
) {
  const res = await svc.app.inject({ method, url, payload: payload as never, headers: await asUser(user) });
  return { status: res.statusCode, body: (res.body ? res.json() : undefined) as T };
}

const create = async (body: GeofenceInputBody, user: Identity = testUsers.dispatcher) =>
  call<Geofence>('POST', '/api/geofences', body, user);

async function createOk(body: GeofenceInputBody, user: Identity = testUsers.dispatcher): Promise<Geofence> {
  const res = await create(body, user);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

describe(`geofence API (${kind} adapters)`, () => {
  it('serves exactly the routes of its contract entries', () => {
    const served = svc.app.routeTable
      .filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const contract = geofenceEndpoints.map((e) => `${e.method} ${fastifyPath(e)}`).sort();
    expect(served).toEqual(contract);
  });

  describe('seed set', () => {
    it('is loaded at start: border posts, ports, inland depots and weighbridges of both corridors', async () => {
      const { status, body } = await call<Geofence[]>('GET', '/api/geofences?limit=1000', undefined, testUsers.companyA);
      expect(status).toBe(200);
      const names = body.map((g) => g.name).join('|');
      for (const place of [
        'Malaba',
        'Busia',
        'Namanga',
        'Holili',
        'Isebania',
        'Mutukula',
        'Rusumo',
        'Kabanga',
        'Tunduma',
        'Mombasa',
        'Dar es Salaam',
        'Nairobi',
        'Naivasha',
        'Isaka',
      ]) {
        expect(names).toContain(place);
      }
      const malaba = body.find((g) => g.name.startsWith('Malaba'))!;
      expect(malaba).toMatchObject({ kind: 'border_post', country: 'KE', area: 'CIRCLE (0.637 34.276, 800)' });
      expect(malaba.attributes).toMatchObject({ minDwellSeconds: 120, exitMarginMeters: 100 });
      const mombasa = body.find((g) => g.name.includes('Mombasa'))!;
      expect(mombasa.kind).toBe('port');
      expect(mombasa.area).toMatch(/^POLYGON \(\(-4\.037 39\.628, /); // latitude first
      const ports = await call<Geofence[]>('GET', '/api/geofences?kind=port&kind=inland_depot');
      expect(ports.body.map((g) => g.kind).sort()).toEqual(['inland_depot', 'inland_depot', 'inland_depot', 'port', 'port']);
      const tz = await call<Geofence[]>('GET', '/api/geofences?country=TZ&kind=border_post');
      expect(tz.body.map((g) => g.name).join('|')).toMatch(/Rusumo/);
      expect(tz.body.every((g) => g.country === 'TZ')).toBe(true);
    });

    it('seeding again inserts nothing', async () => {
      const before = (await call<Geofence[]>('GET', '/api/geofences?limit=1000')).body.length;
      expect(await svc.seed()).toBe(0);
      expect((await call<Geofence[]>('GET', '/api/geofences?limit=1000')).body.length).toBe(before);
    });
  });

  describe('CRUD in Traccar shape', () => {
    it('creates from Traccar WKT (ring closed for you), reads it back, audits it and publishes it on geofences.v1', async () => {
      const g = await createOk({
        name: 'Kisumu yard',
        description: 'night parking',
        area: 'POLYGON ((-0.10 34.70, -0.10 34.72, -0.12 34.72, -0.12 34.70))',
        attributes: { color: '#00ff00', speedLimit: 10 },
        kind: 'restricted',
        country: 'KE',
      });
      expect(g).toMatchObject({
        name: 'Kisumu yard',
        description: 'night parking',
        calendarId: 0,
        kind: 'restricted',
        country: 'KE',
        area: 'POLYGON ((-0.1 34.7, -0.1 34.72, -0.12 34.72, -0.12 34.7, -0.1 34.7))',
        attributes: { color: '#00ff00', speedLimit: 10 },
      });
      expect((await call<Geofence>('GET', `/api/geofences/${g.id}`, undefined, testUsers.agentA)).body).toEqual(g);
      const message = await eventually('geofences.v1 definition', () => published.get(String(g.id)));
      // with the parsed shape ([lon, lat]) for consumers that test containment (ops-api's geofence speed limits)
      const shape = {
        kind: 'polygon',
        rings: [
          [
            [34.7, -0.1],
            [34.72, -0.1],
            [34.72, -0.12],
            [34.7, -0.12],
            [34.7, -0.1],
          ],
        ],
      };
      expect(message).toEqual({ ...g, links: { deviceIds: [], groupIds: [] }, shape, deleted: false });
      const trail = await audit.forEntity(adapters.db.orm, 'geofence', g.id);
      expect(trail.map((a) => [a.action, a.actorEmail])).toEqual([['geofence.create', testUsers.dispatcher.email]]);
    });

    it('accepts GeoJSON instead of WKT and stores Traccar WKT', async () => {
      const polygon = await createOk({
        name: 'GeoJSON yard',
        geometry: {
          type: 'Feature',
          properties: {},
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [36.8, -1.3],
                [36.81, -1.3],
                [36.81, -1.31],
                [36.8, -1.3],
              ],
            ],
          },
        },
      });
      expect(polygon.area).toBe('POLYGON ((-1.3 36.8, -1.3 36.81, -1.31 36.81, -1.3 36.8))');
      const circle = await createOk({ name: 'GeoJSON circle', geometry: { type: 'Point', coordinates: [36.9, -1.33] }, radius: 250 });
      expect(circle.area).toBe('CIRCLE (-1.33 36.9, 250)');
      const line = await createOk({
        name: 'GeoJSON corridor',
        geometry: {
          type: 'LineString',
          coordinates: [
            [36.9, -1.33],
            [37, -1.4],
          ],
        },
        attributes: { polylineDistance: 60 },
      });
      expect(line).toMatchObject({ area: 'LINESTRING (-1.33 36.9, -1.4 37)', attributes: { polylineDistance: 60 } });
    });

    it("reads Traccar's calendarId 0 as no calendar and refuses a negative one", async () => {
      expect((await createOk({ name: 'Traccar client fence', area: 'CIRCLE (-1 36.5, 100)', calendarId: 0 })).calendarId).toBe(0); // Traccar's none, answered as it came
      expect((await createOk({ name: 'Calendar fence', area: 'CIRCLE (-1 36.5, 100)', calendarId: 3 })).calendarId).toBe(3);
      const res = await create({ name: 'Bad calendar', area: 'CIRCLE (-1 36.5, 100)', calendarId: -1 });
      expect(res.status).toBe(400);
      expect((res.body as unknown as ErrorBody).error.details).toContainEqual(expect.objectContaining({ path: 'calendarId' }));
    });

    it("gives a WKT LINESTRING Traccar's default corridor width of 25 m", async () => {
      const g = await createOk({ name: 'Access road', area: 'LINESTRING (-1.33 36.9, -1.34 36.91)' });
      expect(g.attributes.polylineDistance).toBe(25);
    });

    it('replaces with PUT, deletes with DELETE (tombstone on geofences.v1), and answers 404 for unknown ids', async () => {
      const g = await createOk({ name: 'Temporary', area: 'CIRCLE (-1 36, 100)' });
      const put = await call<Geofence>(
        'PUT',
        `/api/geofences/${g.id}`,
        { name: 'Temporary (moved)', area: 'CIRCLE (-1.01 36, 150)', kind: 'other' },
        testUsers.officer,
      );
      expect(put.status).toBe(200);
      expect(put.body).toMatchObject({ id: g.id, name: 'Temporary (moved)', area: 'CIRCLE (-1.01 36, 150)', calendarId: 0 });
      expect(put.body).not.toHaveProperty('description'); // none: left out, as Traccar's schema has a string
      await eventually('updated definition', () => (published.get(String(g.id)) as Geofence | undefined)?.name === 'Temporary (moved)');

      expect((await call('DELETE', `/api/geofences/${g.id}`)).status).toBe(204);
      expect((await call<ErrorBody>('GET', `/api/geofences/${g.id}`)).body.error.code).toBe('NOT_FOUND');
      await eventually('tombstone', () => published.get(String(g.id))?.deleted === true);
      expect(published.get(String(g.id))).toEqual({ id: g.id, deleted: true });
      expect((await call('DELETE', `/api/geofences/${g.id}`)).status).toBe(404);
      expect((await call('PUT', `/api/geofences/${g.id}`, { name: 'x', area: 'CIRCLE (-1 36, 100)' })).status).toBe(404);
      expect((await call('GET', '/api/geofences/999999')).status).toBe(404);
      const trail = await audit.forEntity(adapters.db.orm, 'geofence', g.id);
      expect(trail.map((a) => a.action).sort()).toEqual(['geofence.create', 'geofence.delete', 'geofence.update']);
      expect(trail.find((a) => a.action === 'geofence.update')).toMatchObject({
        actorEmail: testUsers.officer.email,
        before: { name: 'Temporary' },
      });
    });

    it('filters and pages the list (keyword, limit, offset)', async () => {
      const a = await createOk({ name: 'Paging fence A', description: 'zz-paging', area: 'CIRCLE (-2 36, 100)' });
      const b = await createOk({ name: 'Paging fence B', description: 'zz-paging', area: 'CIRCLE (-2 36.1, 100)' });
      const all = await call<Geofence[]>('GET', '/api/geofences?keyword=zz-paging');
      expect(all.body.map((g) => g.id)).toEqual([a.id, b.id]);
      const second = await call<Geofence[]>('GET', '/api/geofences?keyword=zz-PAGING&limit=1&offset=1&all=true&userId=5');
      expect(second.body.map((g) => g.id)).toEqual([b.id]);
      expect((await call('GET', '/api/geofences?limit=0')).status).toBe(400);
      expect((await call('GET', '/api/geofences?kind=volcano')).status).toBe(400);
      expect((await call('GET', '/api/geofences?all=maybe')).status).toBe(400);
    });
  });

  describe('area validation: 400 with every issue (path, code, message)', () => {
    const cases: [string, GeofenceInputBody, { path: string; code: string }][] = [
      [
        'self-intersecting polygon',
        { name: 'x', area: 'POLYGON ((0 0, 1 1, 1 0, 0 1, 0 0))' },
        { path: 'area.0.0', code: 'self_intersection' },
      ],
      [
        'latitude out of range (a swapped pair)',
        { name: 'x', area: 'POLYGON ((-1 36, 136 -1.1, -1.1 36.1, -1 36))' },
        { path: 'area.0.1', code: 'coordinate_out_of_range' },
      ],
      ['radius out of range', { name: 'x', area: 'CIRCLE (-1 36, 0.5)' }, { path: 'area.radius', code: 'radius_out_of_range' }],
      ['unknown shape', { name: 'x', area: 'TRIANGLE ((0 0, 1 1, 1 0))' }, { path: 'area', code: 'unknown_shape' }],
      ['broken syntax', { name: 'x', area: 'POLYGON ((0 0, 1 1, 1 0)' }, { path: 'area', code: 'syntax' }],
      ['too few points', { name: 'x', area: 'POLYGON ((0 0, 1 1))' }, { path: 'area.0', code: 'too_few_points' }],
      [
        'fence across the antimeridian',
        { name: 'x', area: 'POLYGON ((0 179, 1 -179, 1 179, 0 179))' },
        { path: 'area.0', code: 'crosses_antimeridian' },
      ],
      [
        'corridor width out of range',
        { name: 'x', area: 'LINESTRING (0 36, 1 36)', attributes: { polylineDistance: 50_000 } },
        { path: 'attributes.polylineDistance', code: 'polyline_distance_out_of_range' },
      ],
      [
        'unclosed GeoJSON ring',
        {
          name: 'x',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [36, -1],
                [36.1, -1],
                [36.1, -1.1],
              ],
            ],
          },
        },
        { path: 'geometry.coordinates.0', code: 'unclosed_ring' },
      ],
      [
        'GeoJSON Point without radius',
        { name: 'x', geometry: { type: 'Point', coordinates: [36, -1] } },
        { path: 'radius', code: 'invalid_number' },
      ],
      [
        'GeoJSON longitude out of range',
        {
          name: 'x',
          geometry: {
            type: 'Polygon',
            coordinates: [
              [
                [36, -1],
                [236, -1],
                [36.1, -1.1],
                [36, -1],
              ],
            ],
          },
        },
        { path: 'geometry.coordinates.0.1', code: 'coordinate_out_of_range' },
      ],
      [
        'unsupported GeoJSON type',
        { name: 'x', geometry: { type: 'MultiPoint', coordinates: [[36, -1]] } },
        { path: 'geometry.type', code: 'unsupported_geometry' },
      ],
    ];
    it.each(cases)('%s', async (_, body, issue) => {
      const res = await create(body);
      expect(res.status).toBe(400);
      const err = (res.body as unknown as ErrorBody).error;
      expect(err.code).toBe('VALIDATION_FAILED');
      expect(err.details).toContainEqual(expect.objectContaining({ in: 'body', ...issue }));
      expect(err.message).toContain(`body.${issue.path}`);
    });

    it('lists every problem at once', async () => {
      const res = await create({ name: 'x', area: 'POLYGON ((95 36, 96 36.1, -1.1 36.1, -1 36))' });
      const details = (res.body as unknown as ErrorBody).error.details ?? [];
      expect(details.map((d) => d.path)).toEqual(['area.0.0', 'area.0.1']);
    });

    it('rejects both or neither of area and geometry, and a bad kind or country, naming the field', async () => {
      for (const [body, path] of [
        [{ name: 'x' }, 'area'],
        [{ name: 'x', area: 'CIRCLE (0 0, 10)', geometry: { type: 'Point', coordinates: [0, 0] } }, 'area'],
        [{ name: 'x', area: 'CIRCLE (0 0, 10)', kind: 'volcano' }, 'kind'],
        [{ name: 'x', area: 'CIRCLE (0 0, 10)', country: 'Kenya' }, 'country'],
        [{ name: 'x', area: 'CIRCLE (0 0, 10)', attributes: { minDwellSeconds: -5 } }, 'attributes.minDwellSeconds'],
        [{ name: '', area: 'CIRCLE (0 0, 10)' }, 'name'],
      ] as const) {
        const res = await create(body as GeofenceInputBody);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect((res.body as unknown as ErrorBody).error.details).toContainEqual(expect.objectContaining({ path }));
      }
    });
  });

  describe('links', () => {
    it('links devices and groups, refuses duplicates, unlinks, and audits each change', async () => {
      const g = await createOk({ name: 'Linked depot', area: 'CIRCLE (-3 37, 300)' });
      const linked = await call<GeofenceLink>('POST', `/api/geofences/${g.id}/links`, { deviceId: 7001 });
      expect(linked).toEqual({ status: 200, body: { geofenceId: g.id, deviceId: 7001, groupId: null } });
      expect((await call('POST', `/api/geofences/${g.id}/links`, { groupId: 55 })).status).toBe(200);
      const again = await call<ErrorBody>('POST', `/api/geofences/${g.id}/links`, { deviceId: 7001 });
      expect(again.status).toBe(409);
      expect(again.body.error.code).toBe('CONFLICT');
      expect((await call('POST', `/api/geofences/${g.id}/links`, { deviceId: 1, groupId: 2 })).status).toBe(400);
      expect((await call('POST', '/api/geofences/999999/links', { deviceId: 1 })).status).toBe(404);
      const links = await call<GeofenceLink[]>('GET', `/api/geofences/${g.id}/links`, undefined, testUsers.companyA);
      expect(links.body).toEqual([
        { geofenceId: g.id, deviceId: 7001, groupId: null },
        { geofenceId: g.id, deviceId: null, groupId: 55 },
      ]);
      await eventually('definition with links', () => {
        const m = published.get(String(g.id));
        return m && !m.deleted && m.links.groupIds.includes(55) ? m : undefined;
      });

      expect((await call('DELETE', `/api/geofences/${g.id}/links`, { deviceId: 7001 })).status).toBe(204);
      expect((await call('DELETE', `/api/geofences/${g.id}/links`, { deviceId: 7001 })).status).toBe(404);
      expect((await call('GET', `/api/geofences/999999/links`)).status).toBe(404);
      expect((await call<GeofenceLink[]>('GET', `/api/geofences/${g.id}/links`)).body).toEqual([
        { geofenceId: g.id, deviceId: null, groupId: 55 },
      ]);
      const trail = await audit.forEntity(adapters.db.orm, 'geofence_link', g.id);
      expect(trail.map((a) => a.action).sort()).toEqual(['geofence.link', 'geofence.link', 'geofence.unlink']);
    });

    it("lists the fences linked to a device or a group, directly (Traccar's list filter: what traccar-web ticks as linked)", async () => {
      await createOk({ name: 'Apply: unlinked', description: 'zz-apply', area: 'CIRCLE (-4 37, 300)' });
      await createOk({ name: 'Apply: border', description: 'zz-apply', kind: 'border_post', area: 'CIRCLE (-4 37.05, 300)' });
      const direct = await createOk({ name: 'Apply: device', description: 'zz-apply', area: 'CIRCLE (-4 37.1, 300)' });
      const grouped = await createOk({ name: 'Apply: group', description: 'zz-apply', area: 'CIRCLE (-4 37.2, 300)' });
      await call('POST', `/api/geofences/${direct.id}/links`, { deviceId: 7101 });
      await call('POST', `/api/geofences/${grouped.id}/links`, { groupId: 66 });
      const entry: DeviceRegistryMessage = {
        id: 7101,
        uniqueId: 'imei-7101',
        name: 'T 7101',
        disabled: false,
        companyId: 101,
        groupId: 66,
        status: 'online',
        deleted: false,
      };
      await adapters.bus.publish(Topics.devices, [{ key: '7101', value: entry }]);
      const ids = async (q: string) => (await call<Geofence[]>('GET', `/api/geofences?keyword=zz-apply&${q}`)).body.map((g) => g.id);
      expect(await ids('deviceId=7101')).toEqual([direct.id]);
      expect(await ids('groupId=66')).toEqual([grouped.id]);
      expect(await ids('deviceId=7102')).toEqual([]);
    });

    it("keeps Traccar's /permissions links of fences (ids as strings too), all or nothing, each error naming its item", async () => {
      const mine = userWith(['dispatcher'], 101);
      const fence = await createOk({ name: 'Perm yard', area: 'CIRCLE (-5 37, 300)' }, mine);
      const other = await createOk({ name: 'Perm yard B', area: 'CIRCLE (-5 37.1, 300)' }, userWith(['dispatcher'], 202));
      const shared = await createOk({ name: 'Perm shared', area: 'CIRCLE (-5 37.2, 300)' }, testUsers.admin);
      const made = await call(
        'POST',
        '/api/links/geofences',
        [
          { deviceId: '7001', geofenceId: String(fence.id) },
          { groupId: 55, geofenceId: fence.id },
        ],
        mine,
      );
      expect(made.status, JSON.stringify(made.body)).toBe(204);
      expect((await call('GET', `/api/links/geofences?deviceId=0&geofenceId=${fence.id}`, undefined, mine)).body).toEqual([
        { deviceId: 7001, geofenceId: fence.id },
      ]);
      expect((await call<unknown[]>('GET', `/api/links/geofences?groupId=55&geofenceId=0`, undefined, mine)).body).toContainEqual({
        groupId: 55,
        geofenceId: fence.id,
      });
      await eventually('the links in the definition', () => {
        const m = published.get(String(fence.id));
        return m && !m.deleted && m.links.deviceIds.includes(7001) && m.links.groupIds.includes(55) ? m : undefined;
      });
      // an existing link: 409 naming item 1, and item 0 (new) not kept
      const again = await call<{ error: { code: string; details: { index: number } } }>(
        'POST',
        '/api/links/geofences',
        [
          { deviceId: 7101, geofenceId: fence.id },
          { deviceId: 7001, geofenceId: fence.id },
        ],
        mine,
      );
      expect([again.status, again.body.error.code, again.body.error.details.index]).toEqual([409, 'CONFLICT', 1]);
      expect((await call('GET', `/api/links/geofences?deviceId=7101&geofenceId=${fence.id}`, undefined, mine)).body).toEqual([]);
      // another company's fence is unknown (404); a shared one is linked by staff only (403)
      expect((await call('POST', '/api/links/geofences', [{ deviceId: 7001, geofenceId: other.id }], mine)).status).toBe(404);
      expect((await call('POST', '/api/links/geofences', [{ deviceId: 7001, geofenceId: shared.id }], mine)).status).toBe(403);
      expect((await call('POST', '/api/links/geofences', [{ deviceId: 7001, geofenceId: shared.id }], testUsers.admin)).status).toBe(204);
      // company B sees neither company A's links nor a link of A's device to a shared fence
      expect((await call('GET', '/api/links/geofences?deviceId=0&geofenceId=0', undefined, userWith(['dispatcher'], 202))).body).toEqual(
        [],
      );
      expect((await call('GET', `/api/links/geofences?deviceId=7001&geofenceId=0`, undefined, mine)).body).toEqual([
        { deviceId: 7001, geofenceId: fence.id },
        { deviceId: 7001, geofenceId: shared.id },
      ]);
      expect((await call('POST', '/api/links/geofences', [{ deviceId: 7001, groupId: 55 }], mine)).status).toBe(400);
      expect(
        (
          await call(
            'DELETE',
            '/api/links/geofences',
            [
              { deviceId: 7001, geofenceId: fence.id },
              { deviceId: 7001, geofenceId: fence.id },
            ],
            mine,
          )
        ).status,
      ).toBe(400);
      expect((await call('DELETE', '/api/links/geofences', [{ deviceId: '7001', geofenceId: String(fence.id) }], mine)).status).toBe(204);
      expect((await call('DELETE', '/api/links/geofences', [{ deviceId: 7001, geofenceId: fence.id }], mine)).status).toBe(404);
      expect(await audit.forEntity(adapters.db.orm, 'geofence_link', fence.id)).toHaveLength(3);
    });
  });

  describe('devices inside now', () => {
    const centre: LonLat = [35.6, 0.2];
    const at = (minutes: number) => new Date(Date.parse('2026-02-01T08:00:00Z') + minutes * 60_000);
    const registry = async (id: number, companyId: number | null) => {
      const entry: DeviceRegistryMessage = {
        id,
        uniqueId: `imei-${id}`,
        name: `T ${id}`,
        disabled: false,
        companyId,
        groupId: null,
        status: 'online',
        deleted: false,
      };
      await adapters.cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
    };

    it("lists the devices inside from the inside-sets, longest first, scoped to the caller's company", async () => {
      const g = await createOk({ name: 'Inside yard', kind: 'inland_depot', area: `CIRCLE (${centre[1]} ${centre[0]}, 300)` });
      await registry(9101, testUsers.companyA.companyId);
      await registry(9102, testUsers.companyB.companyId);
      await svc.evaluator.handle([
        positionAt(9101, at(0), northOf(centre, 1000)),
        positionAt(9101, at(1), centre),
        positionAt(9102, at(2), northOf(centre, 100)),
        positionAt(9103, at(3), northOf(centre, -100)),
        positionAt(9103, at(10), northOf(centre, 900)),
      ]);
      const page = await call<Page<{ deviceId: number; enteredAt: string; dwellSeconds: number }>>(
        'GET',
        `/api/geofences/${g.id}/inside`,
        undefined,
        testUsers.analyst,
      );
      expect(page.status).toBe(200);
      expect(page.body.total).toBe(2);
      expect(page.body.items.map((i) => [i.deviceId, i.enteredAt])).toEqual([
        [9101, at(1).toISOString()],
        [9102, at(2).toISOString()],
      ]);
      expect(page.body.items[0]!.dwellSeconds).toBeGreaterThan((Date.now() - at(1).getTime()) / 1000 - 60);
      const paged = await call<Page<{ deviceId: number }>>(
        'GET',
        `/api/geofences/${g.id}/inside?limit=1&offset=1`,
        undefined,
        testUsers.admin,
      );
      expect(paged.body).toMatchObject({ total: 2, limit: 1, offset: 1, items: [{ deviceId: 9102 }] });
      const mine = await call<Page<{ deviceId: number }>>('GET', `/api/geofences/${g.id}/inside`, undefined, testUsers.companyA);
      expect(mine.body.items.map((i) => i.deviceId)).toEqual([9101]);
      const theirs = await call<Page<{ deviceId: number }>>('GET', `/api/geofences/${g.id}/inside`, undefined, testUsers.companyB);
      expect(theirs.body.items.map((i) => i.deviceId)).toEqual([9102]);
      const orphan = await call<Page<{ deviceId: number }>>(
        'GET',
        `/api/geofences/${g.id}/inside`,
        undefined,
        userWith(['company_user'], null),
      );
      expect(orphan.body.items).toEqual([]);
      expect((await call('GET', '/api/geofences/999999/inside')).status).toBe(404);
      expect((await call('GET', `/api/geofences/${g.id}/inside?limit=5000`)).status).toBe(400);
    });

    it('clears the inside-set when the fence is deleted', async () => {
      const g = await createOk({ name: 'Short-lived yard', kind: 'inland_depot', area: 'CIRCLE (0.3 35.7, 300)' });
      await svc.evaluator.handle([positionAt(9201, at(0), [35.7, 0.3])]);
      expect((await call<Page<unknown>>('GET', `/api/geofences/${g.id}/inside`, undefined, testUsers.officer)).body.total).toBe(1);
      await call('DELETE', `/api/geofences/${g.id}`);
      expect(await adapters.cache.hgetall(`geofence:inside:${g.id}`)).toEqual({});
    });
  });

  describe('dwell statistics', () => {
    const centre: LonLat = [35.5, 0.1];
    const outside = northOf(centre, 2000);
    const t = (iso: string) => new Date(iso);
    /** one visit: outside a minute before, inside at `enter` and a minute later, outside at `exit` */
    const visit = (device: number, enter: string, exit: string) => [
      positionAt(device, new Date(t(enter).getTime() - 60_000), outside),
      positionAt(device, t(enter), centre),
      positionAt(device, new Date(t(enter).getTime() + 60_000), centre),
      positionAt(device, t(exit), outside),
    ];
    let fence: Geofence;

    beforeAll(async () => {
      fence = await createOk({ name: 'Stats yard', kind: 'weighbridge', area: `CIRCLE (${centre[1]} ${centre[0]}, 300)` });
      for (const [id, companyId] of [
        [9001, 101],
        [9002, 202],
      ] as const) {
        const entry: DeviceRegistryMessage = {
          id,
          uniqueId: `imei-${id}`,
          name: `T ${id}`,
          disabled: false,
          companyId,
          groupId: null,
          status: 'online',
          deleted: false,
        };
        await adapters.cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
      }
      await svc.evaluator.handle([
        ...visit(9001, '2026-02-10T10:00:00Z', '2026-02-10T10:10:00Z'), // 600 s
        ...visit(9001, '2026-02-10T14:00:00Z', '2026-02-10T14:05:00Z'), // 300 s
        ...visit(9001, '2026-02-11T09:00:00Z', '2026-02-11T10:00:00Z'), // 3600 s
        ...visit(9002, '2026-02-10T12:00:00Z', '2026-02-10T12:20:00Z'), // 1200 s
        ...visit(9002, '2026-02-11T22:00:00Z', '2026-02-11T22:30:00Z'), // 1800 s, 12 Feb in Nairobi
      ]);
    });

    const stats = async (query: string, user: Identity = testUsers.analyst) =>
      call<Page<DwellRow>>(
        'GET',
        `/api/geofences/stats/dwell?from=2026-02-10T00:00:00Z&to=2026-02-13T00:00:00Z&geofenceId=${fence.id}${query}`,
        undefined,
        user,
      );

    it('gives count, average, p50, p90 and max dwell per fence and UTC day', async () => {
      // a company caller is scoped (companyScope): a company with no trucks at this fence sees no visits;
      // a platform dispatcher (no company) sees them all
      expect((await stats('', userWith(['dispatcher'], 303))).body).toMatchObject({ total: 0, items: [] });
      expect((await stats('', testUsers.dispatcher)).body.total).toBeGreaterThan(0);
      const res = await stats('');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.items).toEqual([
        {
          geofenceId: fence.id,
          geofenceName: 'Stats yard',
          day: '2026-02-10',
          count: 3,
          avgSeconds: 700,
          p50Seconds: 600,
          p90Seconds: 1080,
          maxSeconds: 1200,
        },
        {
          geofenceId: fence.id,
          geofenceName: 'Stats yard',
          day: '2026-02-11',
          count: 2,
          avgSeconds: 2700,
          p50Seconds: 2700,
          p90Seconds: 3420,
          maxSeconds: 3600,
        },
      ]);
    });

    it('counts days in the requested time zone, filters by kind, and pages', async () => {
      const nairobi = await stats('&timezone=Africa/Nairobi');
      expect(nairobi.body.items.map((r) => [r.day, r.count])).toEqual([
        ['2026-02-10', 3],
        ['2026-02-11', 1],
        ['2026-02-12', 1],
      ]);
      const paged = await stats('&timezone=Africa/Nairobi&limit=1&offset=2');
      expect(paged.body).toMatchObject({ total: 3, items: [{ day: '2026-02-12', maxSeconds: 1800 }] });
      const byKind = await call<Page<DwellRow>>(
        'GET',
        '/api/geofences/stats/dwell?from=2026-02-10T00:00:00Z&to=2026-02-13T00:00:00Z&kind=weighbridge',
        undefined,
        testUsers.analyst,
      );
      expect(byKind.body.items.every((r) => r.geofenceId === fence.id)).toBe(true);
      expect(byKind.body.total).toBe(2);
      const otherKind = await call<Page<DwellRow>>(
        'GET',
        `/api/geofences/stats/dwell?from=2026-02-10T00:00:00Z&to=2026-02-13T00:00:00Z&kind=port&geofenceId=${fence.id}`,
        undefined,
        testUsers.analyst,
      );
      expect(otherKind.body).toMatchObject({ total: 0, items: [] });
    });

    it('limits a company user to the visits of its own devices', async () => {
      const mine = await stats('', testUsers.companyA);
      expect(mine.body.items.map((r) => [r.day, r.count, r.avgSeconds, r.maxSeconds])).toEqual([
        ['2026-02-10', 2, 450, 600],
        ['2026-02-11', 1, 3600, 3600],
      ]);
      const theirs = await stats('', testUsers.companyB);
      expect(theirs.body.items.map((r) => [r.day, r.count])).toEqual([
        ['2026-02-10', 1],
        ['2026-02-11', 1],
      ]);
    });

    it('rejects a bad period or time zone, naming the field', async () => {
      for (const [query, path] of [
        ['from=2026-02-13T00:00:00Z&to=2026-02-10T00:00:00Z', 'to'],
        ['from=2024-01-01T00:00:00Z&to=2026-02-10T00:00:00Z', 'to'],
        ['from=yesterday&to=2026-02-10T00:00:00Z', 'from'],
        ['from=2026-02-10T00:00:00Z&to=2026-02-13T00:00:00Z&timezone=Mars/Olympus', 'timezone'],
        ['to=2026-02-13T00:00:00Z', 'from'],
      ]) {
        const res = await call<ErrorBody>('GET', `/api/geofences/stats/dwell?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.error.details, query).toContainEqual(expect.objectContaining({ path }));
      }
    });
  });
});

describe('access', () => {
  it('lets any signed-in user read and only admin, dispatcher and association officers write', async () => {
    expect((await call('GET', '/api/geofences', undefined, testUsers.companyB)).status).toBe(200);
    expect((await create({ name: 'Not allowed', area: 'CIRCLE (0 36, 100)' }, testUsers.analyst)).status).toBe(403);
    expect((await create({ name: 'Not allowed', area: 'CIRCLE (0 36, 100)' }, testUsers.companyA)).status).toBe(403);
    expect((await create({ name: 'Allowed', area: 'CIRCLE (0 36, 100)' }, testUsers.admin)).status).toBe(200);
    expect((await create({ name: 'Allowed', area: 'CIRCLE (0 36, 100)' }, testUsers.officer)).status).toBe(200);
  });
});

for (const endpoint of geofenceEndpoints) {
  const takesBody = endpoint.method === 'post' || endpoint.method === 'put' || endpoint.id === 'geofences.links.delete';
  runCommonRouteTests({
    app: () => svc.app,
    endpoint,
    params: { id: '1' },
    invalidBody: takesBody ? (endpoint.path.endsWith('/links') ? { deviceId: 'seven' } : { name: '' }) : undefined,
  });
}
