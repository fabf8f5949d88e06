import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { fastifyPath, journeysEndpoints, routesEndpoints, type Journey, type JourneyDetail, type JourneyFlag } from '@corridor/contracts';
import { insertPositions, queryEvents } from '@corridor/platform';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { registerDevices } from '@corridor/platform/testing/registry';
import { asUser, testUsers, userWith } from '@corridor/platform/testing/identity';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import type { Identity } from '@corridor/platform';
import { journeyEndpoints } from '../src/app';
import { routes } from '../src/db/schema';
import { flagsRepository } from '../src/flags/repository';
import { journeysRepository } from '../src/journeys/repository';
import { positionOf, startHarness, type Harness } from './journey-harness';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

const kind = await primaryKind();
let h: Harness;
let northern: number;
let central: number;
const base = Date.parse('2025-04-01T06:00:00Z');
const at = (minutes: number) => new Date(base + minutes * 60_000);

beforeAll(async () => {
  h = await startHarness(kind);
  const rows = await h.adapters.db.orm.select().from(routes).orderBy(routes.id);
  northern = rows.find((r) => r.code === 'northern-corridor')!.id;
  central = rows.find((r) => r.code === 'central-corridor')!.id;
});
afterAll(async () => {
  await h?.svc.close();
  await h?.adapters.close();
});

const app = () => h.svc.app;
const [createEp, activeEp, flaggedEp, completedEp, getEp, cancelEp, ackEp, resolveEp] = journeysEndpoints;

async function call(method: string, url: string, user: Identity, payload?: unknown) {
  return app().inject({
    method: method as 'GET',
    url,
    headers: await asUser(user),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let device = 500;
async function declare(over: Record<string, unknown> = {}, user: Identity = testUsers.dispatcher): Promise<Journey> {
  const payload = { deviceId: device++, routeId: northern, companyId: 101, truckPlate: 'KBX 001A', shipmentRef: 'SHP-9', ...over };
  // the device as ops-api registers it: of the journey's company
  await registerDevices(h.adapters.cache, [
    { id: payload.deviceId as number, companyId: (payload.companyId as number | null) ?? user.companyId },
  ]);
  const res = await call('POST', '/api/journey', user, payload);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Journey>();
}

const journeysRepo = () => journeysRepository(h.adapters.db.orm);
const flagsRepo = () => flagsRepository(h.adapters.db.orm);
const openFlag = (j: Journey, type: 'offCorridor' | 'overspeed' | 'signalLoss', minutes: number) =>
  flagsRepo().open({
    journeyId: j.id,
    deviceId: j.deviceId,
    type,
    openedAt: at(minutes),
    latitude: -3.9,
    longitude: 39.4,
    distanceM: 2800,
    details: { distanceM: 2800 },
  });
const ids = (res: { json: <T>() => T }) => res.json<Journey[]>().map((j) => j.id);

runCommonRouteTests({ app, endpoint: createEp, invalidBody: { deviceId: 'x' } });
runCommonRouteTests({ app, endpoint: activeEp });
runCommonRouteTests({ app, endpoint: flaggedEp });
runCommonRouteTests({ app, endpoint: completedEp });
runCommonRouteTests({ app, endpoint: getEp, params: { id: '1' } });
runCommonRouteTests({ app, endpoint: cancelEp, params: { id: '1' }, invalidBody: { reason: 7 } });
runCommonRouteTests({ app, endpoint: ackEp, params: { flagId: '1' }, invalidBody: { note: 7 } });
runCommonRouteTests({ app, endpoint: resolveEp, params: { flagId: '1' }, invalidBody: {} });

describe('the contract', () => {
  it('the app serves exactly the journey service endpoints of the contract under /api', () => {
    const served = app()
      .routeTable.filter((r) => r.url.startsWith('/api/'))
      .map((r) => `${r.method} ${r.url}`)
      .sort();
    const declared = journeyEndpoints.map((e) => `${e.method} ${fastifyPath(e)}`).sort();
    // routes and journeys, plus the audit trail's read endpoint
    expect(declared).toHaveLength(routesEndpoints.length + journeysEndpoints.length + 1);
    expect(declared).toContain('get /api/audit/journeys');
    expect(served).toEqual(declared);
  });
});

describe('POST /journey', () => {
  it('declares a planned journey, audited, with the route name and countries', async () => {
    const j = await declare({ plannedDeparture: at(0).toISOString(), plannedArrival: at(2400).toISOString(), cargoRef: 'IDF-1' });
    expect(j).toMatchObject({
      state: 'planned',
      routeId: northern,
      routeName: 'Northern Corridor (Mombasa – Malaba)',
      countries: ['KE'],
      companyId: 101,
      flagged: false,
      openFlags: [],
      cargoRef: 'IDF-1',
      createdBy: testUsers.dispatcher.userId,
    });
    const audit = await h.adapters.db.rows<{ action: string }>(
      sql`select action from journey.audit_log where entity_type = 'journey' and entity_id = ${String(j.id)}`,
    );
    expect(audit.map((a) => a.action)).toEqual(['journey.create']);
  });

  it('a company dispatcher declares for its own company by default; another company or its device is 404, like unknown ones', async () => {
    const companyDispatcher = userWith(['dispatcher'], 202, 42);
    const own = await declare({ companyId: null }, companyDispatcher);
    expect(own.companyId).toBe(202);
    await registerDevices(h.adapters.cache, [
      { id: 9, companyId: 202 },
      { id: 10, companyId: 101 },
    ]);
    const otherCompany = await call('POST', '/api/journey', companyDispatcher, { deviceId: 9, routeId: northern, companyId: 101 });
    expect(otherCompany.statusCode).toBe(404);
    expect(otherCompany.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Company 101 not found' } });
    const otherDevice = await call('POST', '/api/journey', companyDispatcher, { deviceId: 10, routeId: northern });
    expect(otherDevice.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Device 10 not found' } });
    const unknownDevice = await call('POST', '/api/journey', companyDispatcher, { deviceId: 9999, routeId: northern });
    expect(unknownDevice.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Device 9999 not found' } });
    expect(unknownDevice.statusCode).toBe(otherDevice.statusCode);
  });

  it('404 for an unknown route; 400 naming the field: arrival before departure, bad device id, bad area', async () => {
    await registerDevices(h.adapters.cache, [{ id: 1, companyId: 101 }]);
    const unknownRoute = await call('POST', '/api/journey', testUsers.admin, { deviceId: 1, routeId: 99999 });
    expect(unknownRoute.statusCode).toBe(404);
    expect(unknownRoute.json()).toMatchObject({ error: { code: 'NOT_FOUND', message: 'Route 99999 not found' } });
    const bad = async (payload: Record<string, unknown>) => {
      const res = await call('POST', '/api/journey', testUsers.admin, { deviceId: 1, routeId: northern, ...payload });
      expect(res.statusCode, res.body).toBe(400);
      return res.json<{ error: { details: { path: string }[] } }>().error.details.map((d) => d.path);
    };
    expect(await bad({ plannedDeparture: at(10).toISOString(), plannedArrival: at(5).toISOString() })).toEqual(['plannedArrival']);
    expect(await bad({ deviceId: -4 })).toEqual(['deviceId']);
    expect(await bad({ plannedDeparture: 'tomorrow' })).toEqual(['plannedDeparture']);
    expect(await bad({ origin: { center: [39.6, -4.05], radiusM: 0 } })).toEqual(['origin.radiusM']);
  });
});

describe('lists: active, flagged, completed', () => {
  let a1: Journey; // active, company 101, northern, offCorridor open
  let a2: Journey; // active, company 202, central
  let c1: Journey; // completed, company 101, overspeed raised and cleared
  let p1: Journey; // planned

  beforeAll(async () => {
    a1 = await declare({ companyId: 101 });
    a2 = await declare({ companyId: 202, routeId: central });
    c1 = await declare({ companyId: 101 });
    p1 = await declare({ companyId: 101 });
    await journeysRepo().markActive(a1.id, at(0));
    await journeysRepo().markActive(a2.id, at(60));
    await journeysRepo().markActive(c1.id, at(0));
    await journeysRepo().markCompleted(c1.id, at(600));
    await openFlag(a1, 'offCorridor', 30);
    await openFlag(c1, 'overspeed', 100);
    await flagsRepo().clear(c1.id, 'overspeed', at(101), {});
  });

  it('active: journeys under way, newest departure first; filters by company, route, country, device, time range', async () => {
    const mine = (res: { json: <T>() => T }) => ids(res).filter((id) => [a1.id, a2.id, c1.id, p1.id].includes(id));
    expect(mine(await call('GET', '/api/journey/active', testUsers.officer))).toEqual([a2.id, a1.id]);
    expect(mine(await call('GET', '/api/journey/active?companyId=101', testUsers.officer))).toEqual([a1.id]);
    expect(mine(await call('GET', `/api/journey/active?routeId=${central}`, testUsers.dispatcher))).toEqual([a2.id]);
    expect(mine(await call('GET', '/api/journey/active?country=TZ', testUsers.analyst))).toEqual([a2.id]);
    expect(mine(await call('GET', `/api/journey/active?deviceId=${a1.deviceId}&deviceId=${a2.deviceId}`, testUsers.admin))).toEqual([
      a2.id,
      a1.id,
    ]);
    expect(mine(await call('GET', `/api/journey/active?from=${at(30).toISOString()}&to=${at(90).toISOString()}`, testUsers.admin))).toEqual(
      [a2.id],
    );
    expect(mine(await call('GET', '/api/journey/active?flagType=offCorridor', testUsers.admin))).toEqual([a1.id]);
    expect(
      ids(await call('GET', `/api/journey/active?deviceId=${a1.deviceId}&deviceId=${a2.deviceId}&limit=1&offset=1`, testUsers.admin)),
    ).toEqual([a1.id]);
  });

  it('company users see their own company only, whatever they filter', async () => {
    const a = ids(await call('GET', '/api/journey/active', testUsers.companyA));
    expect(a).toContain(a1.id);
    expect(a).not.toContain(a2.id);
    // another company, named in a filter, answers like an unknown one
    expect((await call('GET', '/api/journey/active?companyId=202', testUsers.companyA)).statusCode).toBe(404);
    expect(ids(await call('GET', '/api/journey/flagged', testUsers.companyB))).not.toContain(a1.id);
    expect(ids(await call('GET', '/api/journey/active', userWith(['company_user'], null)))).toEqual([]);
  });

  it('flagged: journeys with flags neither cleared nor resolved, with their types', async () => {
    const res = await call('GET', '/api/journey/flagged', testUsers.dispatcher);
    const flagged = res.json<Journey[]>().filter((j) => [a1.id, a2.id, c1.id].includes(j.id));
    expect(flagged.map((j) => [j.id, j.flagged, j.openFlags])).toEqual([[a1.id, true, ['offCorridor']]]);
    expect(ids(await call('GET', '/api/journey/flagged?flagType=overspeed', testUsers.dispatcher))).not.toContain(a1.id);
    expect(ids(await call('GET', `/api/journey/flagged?from=${at(31).toISOString()}`, testUsers.dispatcher))).not.toContain(a1.id);
  });

  it('completed: by arrival, with flags ever raised as a filter', async () => {
    expect(ids(await call('GET', '/api/journey/completed?companyId=101', testUsers.dispatcher))).toContain(c1.id);
    expect(ids(await call('GET', '/api/journey/completed?flagType=overspeed', testUsers.dispatcher))).toContain(c1.id);
    expect(ids(await call('GET', '/api/journey/completed?flagType=signalLoss', testUsers.dispatcher))).not.toContain(c1.id);
    expect(ids(await call('GET', `/api/journey/completed?to=${at(599).toISOString()}`, testUsers.dispatcher))).not.toContain(c1.id);
  });

  it('400 naming the query field: bad country, flag type, time, from after to', async () => {
    for (const [q, field] of [
      ['country=kenya', 'country'],
      ['flagType=speeding', 'flagType.0'],
      ['from=yesterday', 'from'],
      ['limit=0', 'limit'],
    ] as const) {
      const res = await call('GET', `/api/journey/active?${q}`, testUsers.admin);
      expect(res.statusCode, q).toBe(400);
      expect(res.json<{ error: { details: { path: string }[] } }>().error.details[0]!.path).toBe(field);
    }
    const res = await call('GET', `/api/journey/active?from=${at(10).toISOString()}&to=${at(0).toISOString()}`, testUsers.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED', details: [{ path: 'from' }] } });
  });
});

describe('GET /journey/{id}', () => {
  it('returns the planned route, the actual track from ClickHouse and the flags', async () => {
    const j = await declare({ plannedDeparture: at(0).toISOString() });
    await journeysRepo().markActive(j.id, at(5));
    await openFlag(j, 'signalLoss', 20);
    const fixes = Array.from({ length: 6 }, (_, i) => ({
      time: at(i * 10).getTime(),
      latitude: -4 + i * 0.01,
      longitude: 39.6 - i * 0.01,
      speedKnots: 30,
    }));
    await insertPositions(h.adapters.analytics)(fixes.map((f) => positionOf(j.deviceId, f)));
    h.clock.set(at(120).getTime());

    const res = await call('GET', `/api/journey/${j.id}`, testUsers.companyA);
    expect(res.statusCode, res.body).toBe(200);
    const detail = res.json<JourneyDetail>();
    expect(detail.journey).toMatchObject({ id: j.id, state: 'active', flagged: true, openFlags: ['signalLoss'] });
    expect(detail.route.code).toBe('northern-corridor');
    expect(detail.route.line!.length).toBe(detail.route.segmentCount + 1);
    // from the actual departure (minute 5) to now
    expect(detail.track.map((p) => p.fixTime)).toEqual(fixes.slice(1).map((f) => new Date(f.time).toISOString()));
    expect(detail.trackTruncated).toBe(false);
    expect(detail.flags).toMatchObject([{ type: 'signalLoss', review: 'new', clearedAt: null, distanceM: 2800 }]);
    // where it opened, in words (the offline geocoder, hand-checked in packages/geodata): on the Mombasa road
    expect(detail.flags[0]!.address).toBe(offlineGeocoder().reverse(-3.9, 39.4).address);
    expect(detail.flags[0]!.address).toMatch(/^\d+ km (N|NE|E|SE|S|SW|W|NW) of .+, KE$/);

    const cut = (await call('GET', `/api/journey/${j.id}?trackLimit=2`, testUsers.dispatcher)).json<JourneyDetail>();
    expect(cut.track).toHaveLength(2);
    expect(cut.trackTruncated).toBe(true);
  });

  it('404 for another company or a missing journey, 400 for a malformed id', async () => {
    const j = await declare({ companyId: 101 });
    expect((await call('GET', `/api/journey/${j.id}`, testUsers.companyB)).statusCode).toBe(404);
    expect((await call('GET', `/api/journey/${j.id}`, userWith(['dispatcher'], 202))).statusCode).toBe(404);
    expect((await call('GET', '/api/journey/999999', testUsers.admin)).json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    expect((await call('GET', '/api/journey/abc', testUsers.admin)).statusCode).toBe(400);
  });
});

describe('POST /journey/{id}/cancel', () => {
  it('cancels an active journey, closes its flags (cleared and resolved), audits and emits the events', async () => {
    const j = await declare();
    await journeysRepo().markActive(j.id, at(0));
    const flagId = await openFlag(j, 'offCorridor', 10);
    h.clock.set(at(30).getTime());
    const res = await call('POST', `/api/journey/${j.id}/cancel`, testUsers.dispatcher, { reason: 'truck broke down' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Journey>()).toMatchObject({
      state: 'cancelled',
      cancelReason: 'truck broke down',
      cancelledAt: at(30).toISOString(),
      flagged: false,
    });
    const [flag] = await h.adapters.db.rows<{ cleared_at: Date | string }>(sql`select cleared_at from journey.flags where id = ${flagId}`);
    expect(new Date(flag!.cleared_at).toISOString()).toBe(at(30).toISOString());
    // nothing is left to review: the flag reads resolved, by the canceller, with the reason
    const detail = (await call('GET', `/api/journey/${j.id}`, testUsers.dispatcher)).json<JourneyDetail>();
    expect(detail.flags).toMatchObject([
      {
        id: flagId,
        review: 'resolved',
        resolvedBy: 4,
        resolvedAt: at(30).toISOString(),
        resolvedNote: 'truck broke down',
        clearedAt: at(30).toISOString(),
      },
    ]);
    expect((await call('POST', `/api/journey/flags/${flagId}/acknowledge`, testUsers.dispatcher, {})).statusCode).toBe(409);
    const audit = await h.adapters.db.rows<{ action: string; note: string; actor_user_id: number; after: unknown }>(
      sql`select action, note, actor_user_id, after from journey.audit_log where entity_type = 'journey' and entity_id = ${String(j.id)} order by id`,
    );
    expect(audit.map((a) => [a.action, a.note, a.actor_user_id])).toEqual([
      ['journey.create', null, 4],
      ['journey.cancel', 'truck broke down', 4],
    ]);
    expect(audit[1]!.after).toMatchObject({ clearedFlags: [flagId], resolvedFlags: [flagId] });
    const events = await queryEvents(h.adapters.analytics)({ deviceIds: [j.deviceId], from: at(0), to: at(60), limit: 10 });
    expect(events.map((e) => [e.type, e.eventTime, e.journeyId]).sort()).toEqual([
      ['journeyCancelled', at(30).toISOString(), String(j.id)],
      ['journeyFlagCleared', at(30).toISOString(), String(j.id)],
      ['journeyFlagResolved', at(30).toISOString(), String(j.id)],
    ]);
  });

  it('a flag cleared before the cancellation is resolved too; one resolved before keeps its review', async () => {
    const j = await declare();
    await journeysRepo().markActive(j.id, at(0));
    const cleared = await openFlag(j, 'overspeed', 5);
    await flagsRepo().clear(j.id, 'overspeed', at(8), {});
    const reviewed = await openFlag(j, 'offCorridor', 10);
    h.clock.set(at(12).getTime());
    expect((await call('POST', `/api/journey/flags/${reviewed}/resolve`, testUsers.admin, { note: 'called the driver' })).statusCode).toBe(
      200,
    );
    h.clock.set(at(30).getTime());
    expect((await call('POST', `/api/journey/${j.id}/cancel`, testUsers.dispatcher, {})).statusCode).toBe(200);
    const detail = (await call('GET', `/api/journey/${j.id}`, testUsers.dispatcher)).json<JourneyDetail>();
    const byId = new Map(detail.flags.map((f) => [f.id, f]));
    expect(byId.get(cleared)).toMatchObject({
      review: 'resolved',
      resolvedAt: at(30).toISOString(),
      resolvedNote: null,
      clearedAt: at(8).toISOString(),
    });
    expect(byId.get(reviewed)).toMatchObject({
      review: 'resolved',
      resolvedAt: at(12).toISOString(),
      resolvedNote: 'called the driver',
      clearedAt: at(30).toISOString(),
    });
  });

  it('a planned journey may be cancelled without a body', async () => {
    const j = await declare();
    const res = await app().inject({ method: 'POST', url: `/api/journey/${j.id}/cancel`, headers: await asUser(testUsers.admin) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Journey>().state).toBe('cancelled');
  });

  it('409 INVALID_TRANSITION with the allowed next states for a cancelled or completed journey', async () => {
    const j = await declare();
    await call('POST', `/api/journey/${j.id}/cancel`, testUsers.dispatcher, {});
    const again = await call('POST', `/api/journey/${j.id}/cancel`, testUsers.dispatcher, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toEqual({
      error: {
        code: 'INVALID_TRANSITION',
        message: 'A cancelled journey cannot be cancelled',
        details: { current: 'cancelled', allowed: [] },
      },
    });
    const done = await declare();
    await journeysRepo().markCompleted(done.id, at(1));
    expect((await call('POST', `/api/journey/${done.id}/cancel`, testUsers.dispatcher, {})).json()).toMatchObject({
      error: { code: 'INVALID_TRANSITION', details: { current: 'completed', allowed: [] } },
    });
  });

  it("404 for another company's dispatcher and for a missing journey", async () => {
    const j = await declare({ companyId: 101 });
    expect((await call('POST', `/api/journey/${j.id}/cancel`, userWith(['dispatcher'], 202), {})).statusCode).toBe(404);
    expect((await call('POST', '/api/journey/999999/cancel', testUsers.admin, {})).statusCode).toBe(404);
    expect((await journeysRepo().get(j.id))!.state).toBe('planned');
  });
});

describe('flag review: acknowledge, resolve', () => {
  it('acknowledge then resolve, each audited with who, when and the note, each announced', async () => {
    const j = await declare();
    await journeysRepo().markActive(j.id, at(0));
    const flagId = await openFlag(j, 'overspeed', 40);
    h.clock.set(at(50).getTime());
    const ack = await call('POST', `/api/journey/flags/${flagId}/acknowledge`, testUsers.dispatcher, { note: 'calling the driver' });
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json<JourneyFlag>()).toMatchObject({
      review: 'acknowledged',
      acknowledgedBy: 4,
      acknowledgedAt: at(50).toISOString(),
      acknowledgedNote: 'calling the driver',
    });

    const again = await call('POST', `/api/journey/flags/${flagId}/acknowledge`, testUsers.dispatcher, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      error: { code: 'INVALID_TRANSITION', details: { current: 'acknowledged', allowed: ['resolved'] } },
    });

    h.clock.set(at(55).getTime());
    const resolved = await call('POST', `/api/journey/flags/${flagId}/resolve`, testUsers.admin, { note: 'driver warned' });
    expect(resolved.json<JourneyFlag>()).toMatchObject({
      review: 'resolved',
      resolvedBy: 1,
      resolvedAt: at(55).toISOString(),
      resolvedNote: 'driver warned',
      clearedAt: null,
    });
    const twice = await call('POST', `/api/journey/flags/${flagId}/resolve`, testUsers.admin, { note: 'again' });
    expect(twice.json()).toMatchObject({ error: { code: 'INVALID_TRANSITION', details: { current: 'resolved', allowed: [] } } });

    // a resolved flag no longer makes its journey flagged
    expect(ids(await call('GET', '/api/journey/flagged', testUsers.dispatcher))).not.toContain(j.id);
    const audit = await h.adapters.db.rows<{ action: string; note: string; actor_email: string }>(
      sql`select action, note, actor_email from journey.audit_log where entity_type = 'flag' and entity_id = ${String(flagId)} order by id`,
    );
    expect(audit.map((a) => [a.action, a.note, a.actor_email])).toEqual([
      ['flag.acknowledge', 'calling the driver', testUsers.dispatcher.email],
      ['flag.resolve', 'driver warned', testUsers.admin.email],
    ]);
    const events = await queryEvents(h.adapters.analytics)({ deviceIds: [j.deviceId], from: at(0), to: at(60), limit: 10 });
    expect(events.map((e) => [e.type, e.attributes.flagId])).toEqual([
      ['journeyFlagAcknowledged', flagId],
      ['journeyFlagResolved', flagId],
    ]);
  });

  it('resolve needs a note (400 naming it); a new flag may be resolved at once', async () => {
    const j = await declare();
    const flagId = await openFlag(j, 'offCorridor', 5);
    const noNote = await call('POST', `/api/journey/flags/${flagId}/resolve`, testUsers.dispatcher, {});
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json<{ error: { details: { path: string }[] } }>().error.details[0]!.path).toBe('note');
    expect(
      (await call('POST', `/api/journey/flags/${flagId}/resolve`, testUsers.dispatcher, { note: 'known road works' })).json<JourneyFlag>()
        .review,
    ).toBe('resolved');
  });

  it("404 for a missing flag or another company's", async () => {
    const j = await declare({ companyId: 101 });
    const flagId = await openFlag(j, 'offCorridor', 7);
    expect((await call('POST', '/api/journey/flags/999999/acknowledge', testUsers.admin, {})).statusCode).toBe(404);
    expect((await call('POST', `/api/journey/flags/${flagId}/acknowledge`, userWith(['dispatcher'], 202), {})).statusCode).toBe(404);
    expect((await call('POST', `/api/journey/flags/${flagId}/acknowledge`, userWith(['dispatcher'], 101), {})).statusCode).toBe(200);
  });
});

describe('the sweep', () => {
  it('activates a planned journey at its planned departure and raises signal loss for a device that never reports', async () => {
    const j = await declare({ plannedDeparture: at(1000).toISOString(), plannedArrival: at(3400).toISOString() });
    h.clock.set(at(999).getTime());
    await h.svc.sweep.run();
    expect((await journeysRepo().get(j.id))!.state).toBe('planned');

    h.clock.set(at(1005).getTime());
    await h.svc.sweep.run();
    const activated = (await journeysRepo().get(j.id))!;
    expect(activated.state).toBe('active');
    expect(activated.actualDeparture!.toISOString()).toBe(at(1000).toISOString());

    h.clock.set(at(1011).getTime());
    await h.svc.sweep.run();
    const detail = (await call('GET', `/api/journey/${j.id}?trackLimit=0`, testUsers.dispatcher)).json<JourneyDetail>();
    expect(detail.flags).toMatchObject([{ type: 'signalLoss', openedAt: at(1010).toISOString(), clearedAt: null }]);
    expect(detail.journey.openFlags).toEqual(['signalLoss']);

    // the device speaks at last, from the port: the flag clears
    await h.svc.evaluator.handle([positionOf(j.deviceId, { time: at(1020).getTime(), latitude: -4.05, longitude: 39.65, speedKnots: 0 })]);
    const [flag] = (await call('GET', `/api/journey/${j.id}?trackLimit=0`, testUsers.dispatcher)).json<JourneyDetail>().flags;
    expect(flag!.clearedAt).toBe(at(1020).toISOString());
    const events = await queryEvents(h.adapters.analytics)({ deviceIds: [j.deviceId], from: at(999), to: at(1100), limit: 10 });
    expect(events.map((e) => e.type)).toEqual(['journeyStarted', 'journeyFlagOpened', 'journeyFlagCleared']);
  });
});
