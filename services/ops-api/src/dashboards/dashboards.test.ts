import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dashboardsEndpoints,
  type ComplianceDashboard,
  type Complaint,
  type Device,
  type EventMessage,
  type IdfExtraction,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { insertEvents, type Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';
import { cargos, singleUseCertificates } from '../db/schema';

let adapters: TestAdapters;
let svc: OpsApiService;
const DAY = 86_400_000;
const to = new Date(Math.floor(Date.now() / 1000) * 1000 + 5 * 60_000); // just after everything the test records
const from = new Date(to.getTime() - 20 * DAY);
const at = (daysAgo: number) => new Date(to.getTime() - daysAgo * DAY).toISOString();
const period = `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
/** Monday (UTC) of the week holding `iso`, as YYYY-MM-DD. */
const monday = (iso: string) => {
  const d = new Date(iso);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
};

const call = async (user: Identity, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
  svc.app.inject({ method, url, headers: await asUser(user), payload: payload as never });
async function device(uniqueId: string, companyId: number): Promise<number> {
  const res = await call(testUsers.admin, 'POST', '/api/devices', { name: uniqueId, uniqueId, companyId });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Device>().id;
}
async function complaint(companyId: number): Promise<Complaint> {
  const res = await call(testUsers.companyB, 'POST', '/api/complaints', {
    subjectType: 'company',
    subjectRef: String(companyId),
    companyId,
    category: 'overloading',
    title: 'Overloaded axle',
    description: 'Weighbridge ticket shows 12 t over the limit.',
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Complaint>();
}
let seq = 0;
const ev = (type: EventMessage['type'], deviceId: number, daysAgo: number, extra: Partial<EventMessage> = {}): EventMessage => ({
  id: `e${++seq}`,
  type,
  deviceId,
  eventTime: at(daysAgo),
  positionId: null,
  journeyId: null,
  geofenceId: null,
  latitude: null,
  longitude: null,
  attributes: {},
  ...extra,
});
const flag = (deviceId: number, daysAgo: number, flagType: string, journeyId: string) =>
  ev('journeyFlagOpened', deviceId, daysAgo, { journeyId, attributes: { flagType } });
const exit = (geofenceId: string, name: string, country: string, dwellSeconds: number, daysAgo: number, kind?: string) =>
  ev('geofenceExit', 999, daysAgo, {
    geofenceId,
    attributes: { geofenceName: name, country, dwellSeconds, ...(kind ? { geofenceKind: kind } : {}) },
  });

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  const [d1, d2, d3, d4] = [
    await device('db-ke-1', 101),
    await device('db-ke-2', 101),
    await device('db-ke-3', 103),
    await device('db-tz-1', 202),
  ];
  const twice = flag(d1!, 3, 'offCorridor', 'j1');
  await insertEvents(adapters.analytics)([
    ev('journeyStarted', d1!, 12, { journeyId: 'j1' }),
    ev('journeyFlagOpened', d1!, 4, { journeyId: 'j1', attributes: { flagType: 'offCorridor' } }),
    ev('journeyStarted', d2!, 6, { journeyId: 'j2' }),
    ev('journeyCompleted', d2!, 2, { journeyId: 'j2' }),
    ev('journeyStarted', d3!, 40, { journeyId: 'j3' }),
    ev('journeyStarted', d4!, 1, { journeyId: 'j4' }),
    twice,
    twice, // the same event twice (redelivery): counted once
    flag(d1!, 10, 'overspeed', 'j1'),
    flag(d3!, 3, 'signalLoss', 'j3'),
    flag(d1!, 60, 'offCorridor', 'j0'),
    flag(d4!, 2, 'offCorridor', 'j4'),
    exit('ke-malaba', 'Malaba OSBP', 'KE', 3600, 2),
    exit('ke-malaba', 'Malaba OSBP', 'KE', 1800, 5),
    exit('ke-busia', 'Busia OSBP', 'KE', 600, 1),
    exit('ke-malaba', 'Malaba OSBP', 'KE', 99999, 30),
    exit('ke-wb-gilgil', 'Gilgil weighbridge', 'KE', 900, 1, 'weighbridge'),
    exit('tz-rusumo', 'Rusumo OSBP', 'TZ', 7200, 3, 'border_post'),
  ]);
  const db = adapters.db.orm;
  const extraction = { format: 'json', fields: {}, valid: true, warnings: [] } as unknown as IdfExtraction;
  const cargoRows = await db
    .insert(cargos)
    .values(
      [101, 101, 101, 101, 202, 101].map((companyId, i) => ({
        companyId,
        idfNumber: `IDF-DASH-${i}`,
        importerName: 'Importer',
        extraction,
        status: 'validated' as const,
        createdByUserId: 6,
        createdByEmail: 'agent@test',
      })),
    )
    .returning({ id: cargos.id, companyId: cargos.companyId });
  const statuses = ['applied', 'submitted', 'approved', 'rejected', 'applied', 'approved'] as const;
  await db.insert(singleUseCertificates).values(
    cargoRows.map((c, i) => ({
      cargoId: c.id,
      companyId: c.companyId,
      status: statuses[i]!,
      verificationCode: `DASH-CODE-${i}`,
      applicantUserId: 6,
      applicantEmail: 'agent@test',
      feeAmount: 2500,
      feeCurrency: 'KES',
      createdAt: new Date(i === 5 ? to.getTime() - 40 * DAY : to.getTime() - DAY), // the last one is before the period
    })),
  );
  await complaint(101);
  const dismissed = await complaint(101);
  await call(testUsers.officer, 'PUT', `/api/complaints/${dismissed.id}/status`, { status: 'dismissed', note: 'not our truck' });
  const reviewed = await complaint(103);
  await call(testUsers.officer, 'PUT', `/api/complaints/${reviewed.id}/status`, { status: 'under_review' });
  await complaint(202);
  const s = await call(testUsers.officer, 'POST', '/api/disciplinary/admin', {
    subjectType: 'company',
    subjectRef: '103',
    companyId: 103,
    sanctionType: 'warning',
    reason: 'Overloading on the Northern Corridor',
    startsAt: at(1),
  });
  expect(s.statusCode, s.body).toBe(201);
});
afterAll(async () => {
  await svc?.close();
  await adapters?.close();
});

const [kenya, tanzania] = dashboardsEndpoints;
const dashboard = async (path: string, user: Identity = testUsers.analyst, query = period) => {
  const res = await call(user, 'GET', `/api/association/compliance/${path}/dashboard?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ComplianceDashboard>();
};

describe('GET /association/compliance/kenya/dashboard', () => {
  it('reads journeys, flags and dwell from ClickHouse and the rest from PostgreSQL, each with its period', async () => {
    const d = await dashboard('kenya');
    const covered = { from: from.toISOString(), to: to.toISOString() };
    expect(d).toMatchObject({ country: 'KE', period: covered, companies: 4 });
    for (const figure of [
      d.activeJourneys,
      d.flagsByTypeAndWeek,
      d.certificates,
      d.complaintsOpen,
      d.borderDwell,
      d.companiesWithMostViolations,
    ]) {
      expect(figure.period).toEqual(covered);
    }
    // j1 (started, flagged) and j3 (started 40 days ago, flagged now) run; j2 completed; j0 is an old journey
    expect(d.activeJourneys).toMatchObject({ active: 2, withActivity: 3, trucksReporting: 3 });
    const expectedFlags = [
      { weekStart: monday(at(3)), flagType: 'offCorridor', count: 1 },
      { weekStart: monday(at(4)), flagType: 'offCorridor', count: 1 },
      { weekStart: monday(at(3)), flagType: 'signalLoss', count: 1 },
      { weekStart: monday(at(10)), flagType: 'overspeed', count: 1 },
    ];
    const merged = new Map<string, number>();
    for (const f of expectedFlags) merged.set(`${f.weekStart}|${f.flagType}`, (merged.get(`${f.weekStart}|${f.flagType}`) ?? 0) + f.count);
    expect(new Map(d.flagsByTypeAndWeek.items.map((f) => [`${f.weekStart}|${f.flagType}`, f.count]))).toEqual(merged);
    expect(d.flagsByTypeAndWeek.total).toBe(4);
    expect(d.certificates).toMatchObject({ pending: 2, approved: 1, rejected: 1 });
    expect(d.complaintsOpen).toMatchObject({ open: 1, underReview: 1, total: 2 });
    expect(d.borderDwell.items).toEqual([
      { geofenceId: 'ke-busia', name: 'Busia OSBP', exits: 1, averageDwellSeconds: 600, medianDwellSeconds: 600 },
      { geofenceId: 'ke-malaba', name: 'Malaba OSBP', exits: 2, averageDwellSeconds: 2700, medianDwellSeconds: 2700 },
    ]);
    expect(d.companiesWithMostViolations.items).toEqual([
      { companyId: 101, name: 'Pwani Freight Movers Ltd', flags: 3, complaints: 1, sanctions: 0, total: 4 },
      { companyId: 103, name: 'Athi River Importers Ltd', flags: 1, complaints: 1, sanctions: 1, total: 3 },
    ]);
  });

  it('limits the violations ranking with top and moves every figure with the period', async () => {
    expect(
      (await dashboard('kenya', testUsers.officer, `${period}&top=1`)).companiesWithMostViolations.items.map((v) => v.companyId),
    ).toEqual([101]);
    const old = await dashboard('kenya', testUsers.admin, `from=${encodeURIComponent(at(80))}&to=${encodeURIComponent(at(50))}`);
    expect(old.flagsByTypeAndWeek.items).toEqual([{ weekStart: monday(at(60)), flagType: 'offCorridor', count: 1 }]);
    expect(old.activeJourneys).toMatchObject({ active: 0, withActivity: 1 }); // j0's flag; j3 had not started yet
    expect(old.borderDwell.items).toEqual([]);
    expect(old.certificates).toMatchObject({ pending: 0, approved: 0, rejected: 0 });
  });

  it('answers 400 to a reversed period and a bad top, and 403 to companies', async () => {
    expect(
      (
        await call(
          testUsers.analyst,
          'GET',
          '/api/association/compliance/kenya/dashboard?from=2025-02-01T00:00:00Z&to=2025-01-01T00:00:00Z',
        )
      ).statusCode,
    ).toBe(400);
    expect((await call(testUsers.analyst, 'GET', '/api/association/compliance/kenya/dashboard?top=0')).statusCode).toBe(400);
    expect((await call(testUsers.companyA, 'GET', '/api/association/compliance/kenya/dashboard')).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: kenya });
});

describe('GET /association/compliance/tanzania/dashboard', () => {
  it('covers Tanzanian companies and border posts only', async () => {
    const d = await dashboard('tanzania');
    expect(d).toMatchObject({ country: 'TZ', companies: 3 });
    expect(d.activeJourneys).toMatchObject({ active: 1, withActivity: 1, trucksReporting: 1 });
    expect(d.flagsByTypeAndWeek.items).toEqual([{ weekStart: monday(at(2)), flagType: 'offCorridor', count: 1 }]);
    expect(d.certificates).toMatchObject({ pending: 1, approved: 0, rejected: 0 });
    expect(d.complaintsOpen).toMatchObject({ open: 1, underReview: 0 });
    expect(d.borderDwell.items).toEqual([
      { geofenceId: 'tz-rusumo', name: 'Rusumo OSBP', exits: 1, averageDwellSeconds: 7200, medianDwellSeconds: 7200 },
    ]);
    expect(d.companiesWithMostViolations.items).toEqual([
      { companyId: 202, name: 'Msasani Corridor Logistics Ltd', flags: 1, complaints: 1, sanctions: 0, total: 2 },
    ]);
  });

  it('answers 403 to a company user', async () => {
    expect((await call(testUsers.companyB, 'GET', '/api/association/compliance/tanzania/dashboard')).statusCode).toBe(403);
  });

  runCommonRouteTests({ app: () => svc.app, endpoint: tanzania });
});
