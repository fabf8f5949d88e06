import { eventually } from '@corridor/platform/testing/eventually';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count } from 'drizzle-orm';
import {
  ratingsEndpoints,
  Topics,
  type Complaint,
  type CompanyRating,
  type Device,
  type EventMessageInput,
  type RatingPage,
  type RatingStats,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import type { Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { companyFlags, shipments } from '../db/schema';
import { rate } from './score';

let adapters: TestAdapters;
let svc: OpsApiService;
const HOUR = 3_600_000;
const now = Date.now();
const iso = (ms: number) => new Date(ms).toISOString();
const period = `from=${encodeURIComponent(iso(now - 24 * HOUR))}&to=${encodeURIComponent(iso(now + 24 * HOUR))}`;

const call = async (user: Identity, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  svc.app.inject({ method, url, headers: await asUser(user), payload: payload as never });

async function device(uniqueId: string, companyId: number | null): Promise<Device> {
  const res = await call(testUsers.admin, 'POST', '/api/devices', { name: uniqueId, uniqueId, companyId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Device>();
}
const flagEvent = (id: string, deviceId: number, type: EventMessageInput['type'] = 'journeyFlagOpened'): EventMessageInput => ({
  id,
  type,
  deviceId,
  eventTime: iso(now - HOUR),
  journeyId: 'j-1',
  attributes: { flagType: 'offCorridor' },
});
const shipment = (
  companyId: number,
  n: number,
  plannedArrival: number,
  actualArrival: number | null,
  status: 'delivered' | 'in_transit' = 'delivered',
) => ({
  companyId,
  reference: `R-${companyId}-${n}`,
  originPlace: 'Mombasa',
  originCountry: 'KE',
  destinationPlace: 'Kampala',
  destinationCountry: 'UG',
  transportMode: 'road' as const,
  status,
  plannedArrival: new Date(plannedArrival),
  actualArrival: actualArrival === null ? null : new Date(actualArrival),
  createdByUserId: 1,
  createdByEmail: 'seed@test',
});

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  await svc.start();
  const [a1, a2] = [await device('rt-a1', 101), await device('rt-a2', 101)];
  await device('rt-b1', 202);
  const loose = await device('rt-none', null);
  await adapters.bus.publish(Topics.events, [
    { key: String(a1.id), value: flagEvent('f1', a1.id) },
    { key: String(a1.id), value: flagEvent('f1', a1.id) }, // redelivered: counts once
    { key: String(a1.id), value: flagEvent('f2', a1.id) },
    { key: String(a1.id), value: flagEvent('f2-cleared', a1.id, 'journeyFlagCleared') },
    { key: String(a2.id), value: flagEvent('f3', a2.id) },
    { key: String(loose.id), value: flagEvent('f4', loose.id) }, // no company: not counted
  ]);
  const db = adapters.db.orm;
  await db.insert(shipments).values([
    shipment(101, 1, now - 5 * HOUR, now - 6 * HOUR),
    shipment(101, 2, now - 5 * HOUR, now - 5 * HOUR),
    shipment(101, 3, now - 5 * HOUR, now - 7 * HOUR),
    shipment(101, 4, now - 5 * HOUR, now - 2 * HOUR), // late
    shipment(101, 5, now - 90 * 24 * HOUR, now - 90 * 24 * HOUR), // outside the period
    shipment(101, 6, now + 5 * HOUR, null, 'in_transit'),
    shipment(202, 1, now - 10 * HOUR, now - 3 * HOUR),
    shipment(202, 2, now - 10 * HOUR, now - 4 * HOUR),
  ]);
  const complaint = async (): Promise<Complaint> =>
    (
      await call(testUsers.companyA, 'POST', '/api/complaints', {
        subjectType: 'company',
        subjectRef: '202',
        companyId: 202,
        category: 'delay',
        title: 'Late again',
        description: 'Arrived a day after the planned date.',
      })
    ).json<Complaint>();
  const upheld = await complaint();
  await complaint();
  await call(testUsers.officer, 'PUT', `/api/complaints/${upheld.id}/status`, { status: 'under_review' });
  await call(testUsers.officer, 'PUT', `/api/complaints/${upheld.id}/status`, { status: 'resolved', note: 'confirmed late' });
  const s = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', {
    subjectType: 'company',
    subjectRef: '202',
    companyId: 202,
    sanctionType: 'suspension',
    reason: 'Repeated late deliveries',
    startsAt: iso(now - 2 * HOUR),
    endsAt: iso(now + 240 * HOUR),
  });
  expect(s.statusCode, s.body).toBe(201);
  await eventually('the three flags consumed', async () => ((await db.select({ n: count() }).from(companyFlags))[0]?.n ?? 0) >= 3);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const [list, stats] = ratingsEndpoints;
const ratingsOf = async (user: Identity, query = '') => {
  const res = await call(user, 'GET', `/api/ratings?${period}${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<RatingPage>();
};

describe('rate (score arithmetic)', () => {
  const p = { from: new Date(0), to: new Date(1) };
  const base = {
    companyId: 1,
    name: 'X',
    delivered: 0,
    onTime: 0,
    flags: 0,
    trucks: 0,
    complaintsUpheld: 0,
    complaintsPending: 0,
    complaintsDismissed: 0,
    sanctions: [],
  };
  it('gives a clean company with no deliveries 100 and drops the on-time weight', () => {
    const r = rate(base, p);
    expect(r).toMatchObject({ score: 100, grade: 'A', components: { onTimeDelivery: { score: null, weight: 0 } } });
    expect(r.components.journeyFlags.weight + r.components.complaints.weight + r.components.sanctions.weight).toBeCloseTo(1, 3);
  });
  it('weighs each component as documented', () => {
    const r = rate(
      {
        ...base,
        delivered: 4,
        onTime: 1,
        flags: 10,
        trucks: 2,
        complaintsUpheld: 2,
        complaintsPending: 2,
        sanctions: [{ sanctionType: 'blacklist' }],
      },
      p,
    );
    const expected = 100 * (0.4 * 0.25 + 0.25 * Math.exp(-1) + 0.2 * Math.exp(-3 / 4) + 0.15 * Math.exp(-8 / 6));
    expect(r.score).toBeCloseTo(expected, 1);
    expect(r.grade).toBe('E');
  });
});

describe('GET /ratings', () => {
  it('rates each company from deliveries, flags from events.v1, complaints and sanctions', async () => {
    const page = await ratingsOf(testUsers.officer, '&sort=company');
    const a = page.items.find((r) => r.companyId === 101)!;
    expect(a.components).toMatchObject({
      onTimeDelivery: { delivered: 4, onTime: 3, score: 0.75 },
      journeyFlags: { flags: 3, trucks: 2 },
      complaints: { upheld: 0, pending: 0 },
      sanctions: { total: 0, points: 0 },
    });
    expect(a.score).toBeCloseTo(100 * (0.4 * 0.75 + 0.25 * Math.exp(-1.5 / 5) + 0.2 + 0.15), 1);
    expect(a.grade).toBe('B');
    const b = page.items.find((r) => r.companyId === 202)!;
    expect(b.components).toMatchObject({
      onTimeDelivery: { delivered: 2, onTime: 0, score: 0 },
      journeyFlags: { flags: 0, trucks: 1, score: 1 },
      complaints: { upheld: 1, pending: 1, dismissed: 0 },
      sanctions: { total: 1, points: 4 },
    });
    expect(b.score).toBeCloseTo(100 * (0.25 + 0.2 * Math.exp(-1.5 / 4) + 0.15 * Math.exp(-4 / 6)), 1);
    expect(b.grade).toBe('D');
    expect(page.items.some((r) => r.companyId === 301)).toBe(false); // associations are not rated
    expect(page.period.from).toBe(iso(now - 24 * HOUR));
    expect(a.period).toEqual(page.period);
  });

  it('sorts, filters by grade and score, and pages', async () => {
    const desc = await ratingsOf(testUsers.analyst);
    const scores = desc.items.map((r) => r.score);
    expect(scores).toEqual([...scores].sort((x, y) => y - x));
    expect((await ratingsOf(testUsers.analyst, '&sort=score_asc&limit=1')).items[0]?.companyId).toBe(202);
    expect((await ratingsOf(testUsers.analyst, '&grade=D')).items.map((r) => r.companyId)).toEqual([202]);
    const high = await ratingsOf(testUsers.analyst, '&minScore=99');
    expect(high.items.every((r) => r.score >= 99)).toBe(true);
    expect(high.items.some((r) => r.companyId === 101)).toBe(false);
    const second = await ratingsOf(testUsers.analyst, '&sort=company&limit=1&offset=1');
    expect(second.total).toBe(desc.total);
    expect(second.items[0]?.companyId).toBe([...desc.items].sort((x, y) => x.companyId - y.companyId)[1]?.companyId);
  });

  it('shows a company user their own rating only', async () => {
    const own = await ratingsOf(testUsers.companyA);
    expect(own.items.map((r: CompanyRating) => r.companyId)).toEqual([101]);
    // another company, named in a filter, answers like an unknown one
    expect((await call(testUsers.companyA, 'GET', `/api/ratings?${period}&companyId=202`)).statusCode).toBe(404);
  });

  it('answers 400 to a reversed period and bad filters', async () => {
    expect((await call(testUsers.officer, 'GET', '/api/ratings?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z')).statusCode).toBe(400);
    expect((await call(testUsers.officer, 'GET', '/api/ratings?grade=F')).statusCode).toBe(400);
    expect((await call(testUsers.officer, 'GET', '/api/ratings?sort=random')).statusCode).toBe(400);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: list });
});

describe('GET /ratings/stats', () => {
  it('summarises the distribution for the period', async () => {
    const res = await call(testUsers.analyst, 'GET', `/api/ratings/stats?${period}`);
    expect(res.statusCode).toBe(200);
    const s = res.json<RatingStats>();
    const all = await ratingsOf(testUsers.analyst, '&limit=1000');
    expect(s.companies).toBe(all.total);
    expect(Object.values(s.byGrade).reduce((a, b) => a + b, 0)).toBe(all.total);
    expect(s.byGrade.D).toBe(1);
    expect(s.totals).toMatchObject({ delivered: 6, onTime: 3, flags: 3, complaintsUpheld: 1, sanctions: 1 });
    expect(s.worst[0]?.companyId).toBe(202);
    expect(s.best[0]?.score).toBe(Math.max(...all.items.map((r) => r.score)));
    expect(s.averageComponentScores.onTimeDelivery).toBeCloseTo((0.75 + 0) / 2, 3);
  });

  it('answers 403 to company users', async () => {
    expect((await call(testUsers.companyA, 'GET', '/api/ratings/stats')).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: stats });
});
