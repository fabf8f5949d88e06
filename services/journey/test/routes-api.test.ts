import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { routesEndpoints, type Route, type RouteInputRaw } from '@corridor/contracts';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { asUser, testUsers, userWith } from '@corridor/platform/testing/identity';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { JourneyThresholds } from '../src/detectors/thresholds';
import { RouteStopAreaKind, RouteThresholds } from '@corridor/contracts';
import { StopAreaKind } from '../src/corridor/route-definition';
import { seedRoutes } from '../src/seed/corridor-seeds';
import { routesRepository } from '../src/routes/repository';
import { startHarness, type Harness } from './journey-harness';

const kind = await primaryKind();
let h: Harness;
beforeAll(async () => {
  h = await startHarness(kind);
});
afterAll(async () => {
  await h?.svc.close();
  await h?.adapters.close();
});

const [listEp, createEp, getEp, updateEp, deleteEp] = routesEndpoints;
const app = () => h.svc.app;

/** A 3-segment route near Voi. */
const valid = (over: Partial<RouteInputRaw> = {}): RouteInputRaw => ({
  name: 'Voi bypass',
  line: [
    [38.55, -3.4],
    [38.56, -3.38],
    [38.57, -3.36],
    [38.58, -3.34],
  ],
  widthM: 300,
  speedLimitsKmh: [50, 80, 80],
  stopAreas: [{ kind: 'yard', name: 'Voi yard', center: [38.567, -3.391], radiusM: 400 }],
  expectedDurationMinutes: 10,
  countries: ['KE'],
  ...over,
});

async function call(method: string, url: string, user: keyof typeof testUsers | ReturnType<typeof userWith>, payload?: unknown) {
  const identity = typeof user === 'string' ? testUsers[user] : user;
  return app().inject({
    method: method as 'GET',
    url,
    headers: await asUser(identity),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

async function create(over: Partial<RouteInputRaw> = {}): Promise<Route> {
  const res = await call('POST', '/api/routes', 'dispatcher', valid(over));
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Route>();
}

/** The field a 400 names. */
async function rejected(payload: unknown): Promise<string[]> {
  const res = await call('POST', '/api/routes', 'admin', payload);
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json<{ error: { code: string; details: { path: string }[] } }>();
  expect(body.error.code).toBe('VALIDATION_FAILED');
  return body.error.details.map((d) => d.path);
}

runCommonRouteTests({ app, endpoint: listEp });
runCommonRouteTests({ app, endpoint: createEp, invalidBody: { name: '' } });
runCommonRouteTests({ app, endpoint: getEp, params: { id: '1' } });
runCommonRouteTests({ app, endpoint: updateEp, params: { id: '1' }, invalidBody: { widthM: 'wide' } });
runCommonRouteTests({ app, endpoint: deleteEp, params: { id: '1' } });

describe('seeded corridors', () => {
  it('start() loaded the Northern and Central corridors with their border posts, weighbridges and parking as approved stops', async () => {
    const res = await call('GET', '/api/routes?keyword=corridor', 'companyA');
    expect(res.statusCode).toBe(200);
    const seeded = res.json<Route[]>();
    expect(seeded.map((r) => r.code)).toEqual(['northern-corridor', 'central-corridor']);
    const [northern, central] = seeded;
    expect(northern!.countries).toEqual(['KE']);
    expect(northern!.speedLimitsKmh).toHaveLength(northern!.segmentCount);
    expect(northern!.lengthM).toBeGreaterThan(800_000);
    expect(northern!.expectedDurationMinutes).toBe(40 * 60);
    const names = (r: Route, kind: string) => r.stopAreas.filter((a) => a.kind === kind).map((a) => a.name);
    expect(names(northern!, 'origin')).toEqual(['Port of Mombasa (Kilindini and Kipevu)']);
    expect(names(northern!, 'destination')).toEqual(['Malaba OSBP']);
    expect(names(northern!, 'weighbridge')).toContain('Gilgil weighbridge');
    expect(names(northern!, 'yard')).toContain('Salgaa truck stop');
    expect(names(central!, 'destination')).toEqual(['Rusumo OSBP']);
    expect(names(central!, 'weighbridge')).toContain('Mikese weighbridge');
    expect(central!.countries).toEqual(['TZ']);
  });

  it('seeding again (the command, or a second start) inserts nothing', async () => {
    const deps = { db: h.adapters.db.orm, repo: routesRepository(h.adapters.db.orm), cache: h.adapters.cache, logger: h.adapters.logger };
    expect(await seedRoutes(deps, { onlyIfEmpty: false })).toEqual([]);
    expect(await seedRoutes(deps, { onlyIfEmpty: true })).toEqual([]);
    const [n] = await h.adapters.db.rows<{ n: number }>(sql`select count(*)::int as n from journey.routes where code like '%-corridor'`);
    expect(n!.n).toBe(2);
  });
});

describe('routes CRUD', () => {
  it('creates, reads, lists with filters, updates and deletes a route, auditing each change', async () => {
    const created = await create({ code: 'voi-bypass' });
    expect(created).toMatchObject({
      name: 'Voi bypass',
      code: 'voi-bypass',
      widthM: 300,
      segmentCount: 3,
      version: 1,
      thresholds: {},
      legs: null,
    });
    expect(created.lengthM).toBeGreaterThan(6000);
    expect(created.lengthM).toBeLessThan(8000);

    const got = await call('GET', `/api/routes/${created.id}`, 'analyst');
    expect(got.json()).toEqual(created);

    const byKeyword = await call('GET', '/api/routes?keyword=bypass', 'companyA');
    expect(byKeyword.json<Route[]>().map((r) => r.id)).toEqual([created.id]);
    const tz = await call('GET', '/api/routes?country=TZ', 'officer');
    expect(tz.json<Route[]>().map((r) => r.code)).toEqual(['central-corridor']);
    const page = await call('GET', '/api/routes?limit=1&offset=1', 'dispatcher');
    expect(page.json<Route[]>().map((r) => r.code)).toEqual(['central-corridor']);
    const byIds = await call('GET', `/api/routes?id=${created.id}&id=1`, 'dispatcher');
    expect(byIds.json<Route[]>()).toHaveLength(2);

    const updated = await call(
      'PUT',
      `/api/routes/${created.id}`,
      'admin',
      valid({ code: 'voi-bypass', widthM: 500, speedLimitsKmh: [60], thresholds: { offCorridorMeters: 200 } }),
    );
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json<Route>()).toMatchObject({ widthM: 500, speedLimitsKmh: [60], version: 2, thresholds: { offCorridorMeters: 200 } });

    const removed = await call('DELETE', `/api/routes/${created.id}`, 'dispatcher');
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', `/api/routes/${created.id}`, 'dispatcher')).statusCode).toBe(404);

    const audit = await h.adapters.db.rows<{ action: string; actor_email: string }>(
      sql`select action, actor_email from journey.audit_log where entity_type = 'route' and entity_id = ${String(created.id)} order by id`,
    );
    expect(audit.map((a) => [a.action, a.actor_email])).toEqual([
      ['route.create', testUsers.dispatcher.email],
      ['route.update', testUsers.admin.email],
      ['route.delete', testUsers.dispatcher.email],
    ]);
  });

  it('accepts legs and joins them, a shared junction vertex counted once', async () => {
    const r = await create({
      line: null,
      legs: [
        [
          [38.55, -3.4],
          [38.56, -3.38],
        ],
        [
          [38.56, -3.38],
          [38.57, -3.36],
          [38.58, -3.34],
        ],
      ],
    });
    expect(r.segmentCount).toBe(3);
    expect(r.line).toBeNull();
  });

  it('answers 404 for a missing route and 400 for a malformed id', async () => {
    expect((await call('GET', '/api/routes/99999', 'dispatcher')).json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await call('PUT', '/api/routes/99999', 'dispatcher', valid())).statusCode).toBe(404);
    expect((await call('DELETE', '/api/routes/99999', 'dispatcher')).statusCode).toBe(404);
    expect((await call('GET', '/api/routes/abc', 'dispatcher')).statusCode).toBe(400);
  });

  it('answers 409 to a taken code', async () => {
    await create({ code: 'taken-code' });
    const res = await call('POST', '/api/routes', 'dispatcher', valid({ code: 'taken-code' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ error: { code: 'CONFLICT', details: { field: 'code' } } });
  });

  it('refuses to change a route an active journey follows, and to delete one any journey refers to', async () => {
    const r = await create();
    const journey = await h.svc.journeys.create(
      {
        deviceId: 77,
        truckPlate: null,
        companyId: null,
        routeId: r.id,
        shipmentRef: null,
        cargoRef: null,
        plannedDeparture: null,
        plannedArrival: null,
        origin: null,
        destination: null,
        attributes: {},
      },
      testUsers.dispatcher,
    );
    const del = await call('DELETE', `/api/routes/${r.id}`, 'admin');
    expect(del.statusCode).toBe(409);
    expect(del.json()).toMatchObject({ error: { code: 'CONFLICT', details: { journeys: { planned: 1 } } } });
    expect((await call('PUT', `/api/routes/${r.id}`, 'admin', valid({ widthM: 400 }))).statusCode).toBe(200);
    await h.adapters.db.rows(sql`update journey.journeys set state = 'active' where id = ${journey.id}`);
    const put = await call('PUT', `/api/routes/${r.id}`, 'admin', valid({ widthM: 600 }));
    expect(put.statusCode).toBe(409);
    expect(put.json()).toMatchObject({ error: { code: 'CONFLICT', details: { activeJourneys: 1 } } });
  });
});

describe('routes validation (400 naming the field)', () => {
  it('width within 50 m .. 20 km', async () => {
    expect(await rejected(valid({ widthM: 10 }))).toEqual(['widthM']);
    expect(await rejected(valid({ widthM: 25_000 }))).toEqual(['widthM']);
  });

  it('one speed limit, or exactly one per segment', async () => {
    expect(await rejected(valid({ speedLimitsKmh: [50, 80] }))).toEqual(['speedLimitsKmh']);
    const res = await call('POST', '/api/routes', 'admin', valid({ speedLimitsKmh: [50, 80, 80, 80] }));
    expect(res.json<{ error: { message: string } }>().error.message).toBe(
      'body.speedLimitsKmh: expected 1 value or 3 (one per segment), got 4',
    );
  });

  it('exactly one of line and legs', async () => {
    expect(await rejected(valid({ line: null }))).toEqual(['line']);
    expect(
      await rejected(
        valid({
          legs: [
            [
              [38.55, -3.4],
              [38.56, -3.38],
            ],
          ],
        }),
      ),
    ).toEqual(['legs']);
  });

  it('valid geometry: coordinates in range, two vertices at least, a line with length, legs that join up', async () => {
    expect(
      await rejected(
        valid({
          line: [
            [38.55, -3.4],
            [38.56, 95],
          ],
        }),
      ),
    ).toEqual(['line.1.1']);
    expect(await rejected(valid({ line: [[38.55, -3.4]], speedLimitsKmh: [50] }))).toEqual(['line']);
    expect(
      await rejected(
        valid({
          line: [
            [38.55, -3.4],
            [38.55, -3.4],
          ],
          speedLimitsKmh: [50],
        }),
      ),
    ).toEqual(['line']);
    const gap = valid({
      line: null,
      legs: [
        [
          [38.55, -3.4],
          [38.56, -3.38],
        ],
        [
          [38.6, -3.3],
          [38.61, -3.29],
        ],
      ],
      speedLimitsKmh: [80],
    });
    expect(await rejected(gap)).toEqual(['legs.1']);
  });

  it('stop areas: known kinds, radius bounds, at most one origin', async () => {
    expect(await rejected(valid({ stopAreas: [{ kind: 'casino' as 'yard', center: [38.56, -3.39], radiusM: 100 }] }))).toEqual([
      'stopAreas.0.kind',
    ]);
    expect(await rejected(valid({ stopAreas: [{ kind: 'yard', center: [38.56, -3.39], radiusM: 1 }] }))).toEqual(['stopAreas.0.radiusM']);
    const twoOrigins = [
      { kind: 'origin' as const, center: [38.55, -3.4] as [number, number], radiusM: 500 },
      { kind: 'origin' as const, center: [38.56, -3.38] as [number, number], radiusM: 500 },
    ];
    expect(await rejected(valid({ stopAreas: twoOrigins }))).toEqual(['stopAreas']);
  });

  it('thresholds: known names only, within bounds', async () => {
    expect(await rejected(valid({ thresholds: { offCorridorClearFactor: 2 } }))).toEqual(['thresholds.offCorridorClearFactor']);
    const unknown = await call('POST', '/api/routes', 'admin', valid({ thresholds: { offCorridorMetres: 100 } as never }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ error: { message: string } }>().error.message).toMatch(/thresholds/);
  });

  it('the contract mirrors the evaluator: same threshold names, same stop-area kinds', () => {
    expect(Object.keys(RouteThresholds.shape).sort()).toEqual(Object.keys(JourneyThresholds.shape).sort());
    expect(RouteStopAreaKind.options).toEqual(StopAreaKind.options);
  });
});

describe('shared routes (issue 11)', () => {
  it('are writable only by staff: a company dispatcher gets 403 on replacing or deleting one (a seeded corridor too), and it stays unchanged and shared', async () => {
    const companyDispatcher = userWith(['dispatcher'], 101);
    // a platform dispatcher (no company) makes an association route: shared, company null
    const shared = await create({ name: 'Association link road', code: 'association-link' });
    expect(shared.companyId).toBeNull();
    const northern = (await call('GET', '/api/routes?keyword=corridor', companyDispatcher))
      .json<Route[]>()
      .find((r) => r.code === 'northern-corridor')!;
    expect(northern.companyId).toBeNull();
    for (const id of [shared.id, northern.id]) {
      const replaced = await call('PUT', `/api/routes/${id}`, companyDispatcher, valid({ name: 'Taken over' }));
      expect(replaced.statusCode, replaced.body).toBe(403);
      expect(replaced.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      const removed = await call('DELETE', `/api/routes/${id}`, companyDispatcher);
      expect(removed.statusCode, removed.body).toBe(403);
    }
    // readable by the company, unchanged and still shared
    expect((await call('GET', `/api/routes/${shared.id}`, companyDispatcher)).json()).toEqual(shared);
    expect((await call('GET', `/api/routes/${northern.id}`, companyDispatcher)).json()).toEqual(northern);
    // staff (the platform's dispatchers and admins), who own the shared routes, change and delete them; the route stays shared
    const staff = await call(
      'PUT',
      `/api/routes/${shared.id}`,
      'dispatcher',
      valid({ name: 'Association link road (checked)', code: 'association-link' }),
    );
    expect(staff.statusCode, staff.body).toBe(200);
    expect(staff.json<Route>()).toMatchObject({ name: 'Association link road (checked)', companyId: null });
    expect((await call('DELETE', `/api/routes/${shared.id}`, 'admin')).statusCode).toBe(204);
  });
});
