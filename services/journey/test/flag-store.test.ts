import { positionId } from '@corridor/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { migrateJourneySchema } from '../src/db/migrate';
import type { FlagChange } from '../src/detectors/flag-change';
import { outcomeStore, type FlagOutcome } from '../src/evaluator/outcome-store';
import type { RuntimeJourney } from '../src/evaluator/runtime-journey';
import { flagsRepository } from '../src/flags/repository';
import { journeysRepository } from '../src/journeys/repository';
import { routesRepository } from '../src/routes/repository';

/** The evaluator's PostgreSQL writes: idempotent, in any order, never touching a newer flag. */
const kind = await primaryKind();
let a: TestAdapters;
let journey: RuntimeJourney;
const t = (minutes: number) => new Date(Date.parse('2025-06-01T08:00:00Z') + minutes * 60_000).toISOString();

beforeAll(async () => {
  a = await createTestAdapters(kind);
  await migrateJourneySchema(a.db);
  const route = await routesRepository(a.db.orm).insert({
    name: 'r',
    line: [
      [36, -1],
      [36.1, -1],
    ],
    widthM: 100,
    speedLimitsKmh: [80],
    expectedDurationMinutes: 60,
    lengthM: 11_000,
    segmentCount: 1,
  });
  const row = await journeysRepository(a.db.orm).insert({ deviceId: 9, routeId: route.id, state: 'active' });
  journey = {
    id: row.id,
    deviceId: 9,
    routeId: route.id,
    companyId: null,
    state: 'active',
    plannedDeparture: null,
    plannedArrival: null,
    origin: null,
    destination: null,
  };
});
afterAll(async () => {
  await a?.close();
});

const change = (
  type: FlagChange['type'],
  action: FlagChange['action'],
  time: string,
  details: FlagChange['details'] = {},
): FlagOutcome => ({
  journey,
  change: { type, action, time, latitude: -1, longitude: 36.05, details },
  distanceM: 900,
  positionId: positionId(9, time),
});

async function rows() {
  return a.db.rows<{ id: string | number; type: string; opened_at: Date; cleared_at: Date | null; escalated: boolean }>(
    sql`select id, type, opened_at, cleared_at, escalated from journey.flags where journey_id = ${journey.id} order by opened_at`,
  );
}
const view = async () =>
  (await rows()).map((r) => [
    r.type,
    new Date(r.opened_at).toISOString(),
    r.cleared_at && new Date(r.cleared_at).toISOString(),
    r.escalated,
  ]);

describe('outcome store', () => {
  const store = () => outcomeStore({ db: a.db.orm, journeys: journeysRepository(a.db.orm), flags: flagsRepository(a.db.orm) });
  const batch = () => [
    change('offCorridor', 'open', t(0), { distanceM: 1500 }),
    change('offCorridor', 'clear', t(10)),
    change('offCorridor', 'open', t(20), { distanceM: 1800 }),
    change('signalLoss', 'open', t(30)),
    change('signalLoss', 'open', t(140), { escalated: true }),
  ];

  it('stores a batch with two flags of one type, an escalation, and events carrying the flag ids', async () => {
    const first = await store().persist(batch(), []);
    expect(await view()).toEqual([
      ['offCorridor', t(0), t(10), false],
      ['offCorridor', t(20), null, false],
      ['signalLoss', t(30), null, true],
    ]);
    const ids = (await rows()).map((r) => Number(r.id));
    expect(first.events.map((e) => [e.type, e.attributes.flagId])).toEqual([
      ['journeyFlagOpened', ids[0]],
      ['journeyFlagCleared', ids[0]],
      ['journeyFlagOpened', ids[1]],
      ['journeyFlagOpened', ids[2]],
      ['journeyFlagOpened', ids[2]],
    ]);
    expect(first.events[0]!.id).toBe(`journey-${journey.id}-offCorridor-opened-${Date.parse(t(0))}`);
    expect(first.events[4]!.id).toBe(`journey-${journey.id}-signalLoss-escalated-${Date.parse(t(140))}`);
  });

  it('a redelivered batch, even reversed, changes no row and yields the same events', async () => {
    const before = await view();
    const again = await store().persist(batch().reverse(), []);
    expect(await view()).toEqual(before);
    const replay = await store().persist(batch(), []);
    expect(replay.events).toEqual(again.events);
    expect(replay.events.map((e) => e.attributes.flagId)).not.toContain(null);
  });

  it('a late clearing of the first flag never clears the newer one of the same type', async () => {
    await store().persist([change('offCorridor', 'clear', t(10))], []);
    expect((await view())[1]).toEqual(['offCorridor', t(20), null, false]);
    await store().persist([change('offCorridor', 'clear', t(25))], []);
    expect((await view())[1]).toEqual(['offCorridor', t(20), t(25), false]);
  });

  it('writes nothing for a journey cancelled meanwhile, and reports it', async () => {
    await a.db.rows(sql`update journey.journeys set state = 'cancelled' where id = ${journey.id}`);
    const outcome = await store().persist(
      [change('overspeed', 'open', t(200))],
      [{ journey, transition: { from: 'active', to: 'completed', time: t(201), latitude: 0, longitude: 0 }, positionId: null }],
    );
    expect(outcome).toEqual({ events: [], rejected: new Set([journey.id]) });
    expect((await view()).map((r) => r[0])).not.toContain('overspeed');
    const [j] = await a.db.rows<{ state: string }>(sql`select state from journey.journeys where id = ${journey.id}`);
    expect(j!.state).toBe('cancelled');
  });
});
