import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import {
  observatoryEndpoints,
  XLSX_MEDIA_TYPE,
  type ObservatoryDwellReport,
  type ObservatoryOpenData,
  type ObservatoryOverview,
  type ObservatorySettings,
  type ObservatoryStopsReport,
  type ObservatoryTransitReport,
} from '@corridor/contracts';
import { runCommonRouteTests } from '@corridor/platform/testing/common-route-tests';
import { asUser, TEST_IDENTITY_SECRET, testUsers, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { rollUpObservatoryDays, type Identity } from '@corridor/platform';
import { build, type OpsApiService } from '../app';

/**
 * The observatory's API over facts with known figures (the tracker's own tests prove the facts from
 * tracks, services/geofence/test/observatory.test.ts through the service). Six trucks:
 * 1 and 2 of company 101 (testUsers.companyA), 3, 4 and 5 of company 202, 6 of no company.
 */
let adapters: TestAdapters;
let svc: OpsApiService;
const W1 = '2026-02-02'; // a Monday
const W2 = '2026-02-09';
const at = (day: string, hour: number) => `${day} ${String(hour).padStart(2, '0')}:00:00.000`;
const period = 'from=2026-02-02T00:00:00Z&to=2026-02-16T00:00:00Z';
const MALABA = { place_id: '40', place_name: 'Malaba OSBP', place_kind: 'border_post', corridor: 'northern' };
const WEBUYE = { id: '30', name: 'Webuye weighbridge', along: 870_000 };
const MALABA_END = { id: '40', name: 'Malaba OSBP', along: 927_000 };
const PORT = { id: '1', name: 'Port of Mombasa', along: 0 };

const visit = (device: number, company: number, day: string, dwell: number, direction = 1) => ({
  ...MALABA,
  device_id: device,
  company_id: company,
  direction,
  entered_at: at(day, 6),
  exited_at: at(day, 12),
  dwell_s: dwell,
});
const leg = (
  device: number,
  company: number,
  day: string,
  transit: number,
  excluded = '',
  from = WEBUYE,
  to = MALABA_END,
  kind = 'segment',
) => ({
  device_id: device,
  company_id: company,
  corridor: 'northern',
  kind,
  from_place: from.id,
  to_place: to.id,
  from_name: from.name,
  to_name: to.name,
  from_along_m: from.along,
  to_along_m: to.along,
  direction: to.along > from.along ? 1 : -1,
  departed_at: at(day, 3),
  arrived_at: at(day, 5),
  transit_s: transit,
  excluded,
});
const stop = (device: number, company: number, day: string, hour: number, minutes: number, area = '') => ({
  device_id: device,
  company_id: company,
  corridor: 'northern',
  direction: 1,
  started_at: at(day, hour),
  ended_at: at(day, hour + 1),
  stop_s: minutes * 60,
  latitude: 0.5,
  longitude: 35,
  area,
});
const distance = (device: number, company: number, day: string, metres: number) => ({
  day,
  device_id: device,
  company_id: company,
  corridor: 'northern',
  direction: 1,
  distance_m: metres,
  version: 1,
});

const call = async (who: Identity | undefined, url: string, method: 'GET' | 'PUT' = 'GET', payload?: unknown) =>
  svc.app.inject({ method, url, headers: who ? await asUser(who) : {}, payload: payload as never });
const json = async <T>(who: Identity | undefined, url: string): Promise<T> => {
  const res = await call(who, url);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<T>();
};

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  svc = await build({ ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET });
  const ch = adapters.analytics;
  const insert = (table: string, values: Record<string, unknown>[]) =>
    ch.client.insert({ table: `${ch.database}.${table}`, values, format: 'JSONEachRow' });
  const w1Visits = [
    visit(1, 101, '2026-02-03', 11_400),
    visit(2, 101, '2026-02-03', 3_600),
    visit(3, 202, '2026-02-04', 7_200),
    visit(4, 202, '2026-02-05', 18_000),
    visit(5, 202, '2026-02-05', 600, -1),
    visit(6, 0, '2026-02-06', 9_000),
  ];
  await insert('obs_visits', [...w1Visits, visit(1, 101, '2026-02-10', 14_400), visit(3, 202, '2026-02-11', 3_000)]);
  await insert('obs_visits', [w1Visits[0]!]); // the same visit written twice (a redelivered batch): counted once
  await insert('obs_legs', [
    leg(1, 101, '2026-02-03', 3_600),
    leg(2, 101, '2026-02-03', 3_960),
    leg(3, 202, '2026-02-04', 5_000, 'left_corridor'),
    leg(4, 202, '2026-02-04', 4_380),
    leg(6, 0, '2026-02-05', 3_840),
    leg(5, 202, '2026-02-05', 3_720, '', MALABA_END, WEBUYE),
    leg(1, 101, '2026-02-06', 150_000, '', PORT, MALABA_END, 'corridor'),
    leg(4, 202, '2026-02-06', 200_000, 'long_stop', PORT, MALABA_END, 'corridor'),
  ]);
  await insert('obs_stops', [
    stop(1, 101, '2026-02-03', 8, 15),
    stop(1, 101, '2026-02-03', 14, 20),
    stop(3, 202, '2026-02-04', 9, 30),
    stop(2, 101, '2026-02-03', 9, 6),
    stop(1, 101, '2026-02-04', 9, 45, '5'),
  ]);
  await insert('obs_distance', [
    distance(1, 101, '2026-02-03', 500_000),
    distance(2, 101, '2026-02-03', 500_000),
    distance(3, 202, '2026-02-04', 1_000_000),
    { ...distance(3, 202, '2026-02-04', 400_000), version: 0 },
  ]); // an older running total of the same day: the newer one counts
  // the API reads the daily indicators, which the geofence service recomputes for the days its facts touch
  await rollUpObservatoryDays(
    ch,
    Array.from({ length: 14 }, (_, i) => `2026-02-${String(2 + i).padStart(2, '0')}`),
  );
});
afterAll(async () => {
  await svc?.app.close();
  await adapters?.close();
});

const [transitEp, dwellEp, stopsEp, mapEp, settingsEp, updateSettingsEp, openDataEp] = observatoryEndpoints;
// the open data is public: no sign-in or role to test (its own tests below)
void openDataEp;
for (const endpoint of [transitEp, dwellEp, stopsEp, mapEp, settingsEp]) runCommonRouteTests({ app: () => svc.app, endpoint });
runCommonRouteTests({ app: () => svc.app, endpoint: updateSettingsEp, invalidBody: { minTrucks: 1 } });

describe('observatory indicators (known figures)', () => {
  it('dwell at Malaba by week: median, p90, count, trucks and the share over the threshold; a visit written twice counts once', async () => {
    const r = await json<ObservatoryDwellReport>(testUsers.analyst, `/api/association/observatory/dwell?${period}`);
    expect(r).toMatchObject({ interval: 'week', direction: 'both', companyId: null, minTrucks: 3 });
    expect(r.items).toEqual([
      expect.objectContaining({
        periodStart: W1,
        placeName: 'Malaba OSBP',
        series: 'all',
        visits: 6,
        trucks: 6,
        medianSeconds: 8_100,
        p90Seconds: 14_700,
        thresholdSeconds: 14_400,
        overThreshold: 1,
        overThresholdShare: 0.167,
        suppressed: false,
      }),
      expect.objectContaining({ periodStart: W2, series: 'all', visits: 2, trucks: 2, medianSeconds: 8_700 }),
    ]);
    // forward only: truck 5 came in the other way
    const forward = await json<ObservatoryDwellReport>(
      testUsers.officer,
      `/api/association/observatory/dwell?${period}&direction=forward&interval=month`,
    );
    expect(forward.items).toEqual([
      expect.objectContaining({ periodStart: '2026-02-01', direction: 'forward', visits: 7, medianSeconds: 9_000 }),
    ]);
    // one corridor, for a company against the others, and on the map (the API fuzz run found a 500 here)
    const northern = await json<ObservatoryDwellReport>(
      testUsers.analyst,
      `/api/association/observatory/dwell?${period}&corridor=northern&direction=forward&companyId=101`,
    );
    expect(northern.items.map((i) => [i.corridor, i.series])).toContainEqual(['northern', 'company']);
    expect(
      (await json<ObservatoryDwellReport>(testUsers.analyst, `/api/association/observatory/dwell?${period}&corridor=central`)).items,
    ).toEqual([]);
    const borderPosts = await json<ObservatoryDwellReport>(
      testUsers.analyst,
      `/api/association/observatory/dwell?${period}&corridor=northern&kind=border_post&kind=port`,
    );
    expect(borderPosts.items.map((i) => i.placeName)).toContain('Malaba OSBP');
    expect(
      (await json<ObservatoryDwellReport>(testUsers.analyst, `/api/association/observatory/dwell?${period}&kind=weighbridge`)).items,
    ).toEqual([]);
    expect((await call(testUsers.analyst, `/api/association/observatory/map?${period}&corridor=northern&companyId=101`)).statusCode).toBe(
      200,
    );
  });

  it('transit per segment and end to end: counted trips only, the others counted apart, directions told apart', async () => {
    const r = await json<ObservatoryTransitReport>(testUsers.analyst, `/api/association/observatory/transit?${period}`);
    const w1 = r.items.filter((i) => i.periodStart === W1);
    expect(w1).toEqual([
      expect.objectContaining({
        kind: 'corridor',
        fromName: 'Port of Mombasa',
        toName: 'Malaba OSBP',
        direction: 'forward',
        trips: 1,
        medianSeconds: 150_000,
        excludedLongStop: 1,
      }),
      expect.objectContaining({
        kind: 'segment',
        fromName: 'Webuye weighbridge',
        toName: 'Malaba OSBP',
        direction: 'forward',
        lengthKm: 57,
        trips: 4,
        trucks: 4,
        medianSeconds: 3_900,
        p90Seconds: 4_254,
        speedKmh: 52.6,
        excludedLeftCorridor: 1,
        excludedLongStop: 0,
      }),
      expect.objectContaining({
        kind: 'segment',
        fromName: 'Malaba OSBP',
        toName: 'Webuye weighbridge',
        direction: 'reverse',
        trips: 1,
        medianSeconds: 3_720,
      }),
    ]);
    const reverse = await json<ObservatoryTransitReport>(
      testUsers.analyst,
      `/api/association/observatory/transit?${period}&direction=reverse&kind=segment`,
    );
    expect(reverse.items.map((i) => [i.fromName, i.toName])).toEqual([['Malaba OSBP', 'Webuye weighbridge']]);
  });

  it('stops outside authorized places per 1,000 km: stops shorter than the setting and in authorized places left out, the latest running distance', async () => {
    const r = await json<ObservatoryStopsReport>(testUsers.analyst, `/api/association/observatory/stops?${period}`);
    expect(r.items).toEqual([
      expect.objectContaining({ periodStart: W1, corridor: 'northern', stops: 3, distanceKm: 2_000, stopsPer1000Km: 1.5, trucks: 3 }),
    ]);
  });

  it('the map: each segment over the whole period with its speed and where it lies, each place with its dwell', async () => {
    const m = await json<ObservatoryOverview>(testUsers.officer, `/api/association/observatory/map?${period}`);
    expect(m.segments).toContainEqual(
      expect.objectContaining({
        fromPlaceId: '30',
        toPlaceId: '40',
        fromAlongM: 870_000,
        toAlongM: 927_000,
        trips: 4,
        medianSeconds: 3_900,
      }),
    );
    expect(m.places).toEqual([expect.objectContaining({ placeId: '40', visits: 8, trucks: 6 })]);
  });

  it('counts durations in whole minutes, rounded up: a visit a second over the threshold is over it', async () => {
    const ch = adapters.analytics;
    await ch.client.insert({
      table: `${ch.database}.obs_visits`,
      values: [visit(1, 101, '2026-02-20', 4 * 3600 + 1), visit(2, 101, '2026-02-20', 4 * 3600)],
      format: 'JSONEachRow',
    });
    await rollUpObservatoryDays(ch, ['2026-02-20']);
    const r = await json<ObservatoryDwellReport>(
      testUsers.analyst,
      '/api/association/observatory/dwell?from=2026-02-16T00:00:00Z&to=2026-02-23T00:00:00Z',
    );
    // 241 and 240 minutes: the median between them, one of the two over the 4 h threshold
    expect(r.items).toEqual([
      expect.objectContaining({ visits: 2, medianSeconds: 14_430, p90Seconds: 14_454, overThreshold: 1, thresholdSeconds: 14_400 }),
    ]);
  });

  it('counts whole UTC days: a period from and to the middle of days covers both days whole', async () => {
    const r = await json<ObservatoryDwellReport>(
      testUsers.analyst,
      '/api/association/observatory/dwell?from=2026-02-03T09:00:00Z&to=2026-02-04T09:00:00Z&interval=month',
    );
    expect(r.period).toEqual({ from: '2026-02-03T00:00:00.000Z', to: '2026-02-05T00:00:00.000Z' });
    expect(r.items).toEqual([expect.objectContaining({ visits: 3, trucks: 3 })]); // trucks 1 and 2 on the 3rd, 3 on the 4th
  });

  it('rejects a period that ends before it begins or spans more than 400 days, in the one error shape', async () => {
    for (const q of [
      'from=2026-02-10T00:00:00Z&to=2026-02-01T00:00:00Z',
      'from=2024-01-01T00:00:00Z&to=2026-02-01T00:00:00Z',
      'interval=day',
    ]) {
      const res = await call(testUsers.analyst, `/api/association/observatory/dwell?${q}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
  });
});

describe('a company sees itself against the anonymised others', () => {
  it('company A: its own series and the others together, unnamed; a cell of fewer than 3 other trucks withheld', async () => {
    const r = await json<ObservatoryDwellReport>(testUsers.companyA, `/api/association/observatory/dwell?${period}`);
    expect(r.companyId).toBe(101);
    expect(r.items).toEqual([
      expect.objectContaining({ periodStart: W1, series: 'company', companyId: 101, visits: 2, medianSeconds: 7_500, suppressed: false }),
      expect.objectContaining({
        periodStart: W1,
        series: 'others',
        companyId: null,
        visits: 4,
        trucks: 4,
        medianSeconds: 8_100,
        suppressed: false,
      }),
      expect.objectContaining({ periodStart: W2, series: 'company', visits: 1, medianSeconds: 14_400 }),
      expect.objectContaining({
        periodStart: W2,
        series: 'others',
        companyId: null,
        visits: null,
        trucks: null,
        medianSeconds: null,
        p90Seconds: null,
        overThresholdShare: null,
        suppressed: true,
      }),
    ]);
  });

  it('never names another company nor reveals a single truck, in JSON and in files, for every indicator', async () => {
    for (const path of ['dwell', 'transit', 'stops', 'map']) {
      const body = (await call(testUsers.companyA, `/api/association/observatory/${path}?${period}`)).body;
      expect(body, path).not.toMatch(/"companyId":\s*202|"deviceId"|Msasani/);
      const others = JSON.stringify(JSON.parse(body));
      // every figure of the others comes from at least minTrucks trucks, or is withheld
      for (const item of [
        ...(JSON.parse(others).items ?? []),
        ...(JSON.parse(others).segments ?? []),
        ...(JSON.parse(others).places ?? []),
      ] as { series: string; trucks: number | null; suppressed: boolean }[]) {
        if (item.series === 'others') expect(item.suppressed || (item.trucks ?? 0) >= 3, `${path} ${JSON.stringify(item)}`).toBe(true);
        expect(item.series).not.toBe('all');
      }
    }
    const csv = (await call(testUsers.companyA, `/api/association/observatory/dwell?${period}&format=csv`)).body;
    expect(csv).toContain('the other companies');
    expect(csv).not.toMatch(/Msasani|(^|,)202(,|$)/m); // company 202 (Msasani) is neither named nor numbered
  });

  it('asking for another company is answered as for an unknown one (404); its own is fine', async () => {
    expect((await call(testUsers.companyA, `/api/association/observatory/dwell?${period}&companyId=202`)).statusCode).toBe(404);
    expect((await call(testUsers.companyA, `/api/association/observatory/dwell?${period}&companyId=101`)).statusCode).toBe(200);
  });

  it('the association sees any company against the rest, nothing withheld, and the company named in its files', async () => {
    const r = await json<ObservatoryDwellReport>(testUsers.analyst, `/api/association/observatory/dwell?${period}&companyId=101`);
    expect(r.items.find((i) => i.periodStart === W2 && i.series === 'others')).toMatchObject({
      visits: 1,
      medianSeconds: 3_000,
      suppressed: false,
    });
    const csv = (await call(testUsers.analyst, `/api/association/observatory/dwell?${period}&companyId=101&format=csv`)).body;
    expect(csv).toContain('Pwani Freight Movers Ltd');
  });
});

describe('downloads', () => {
  it('CSV headed in words with units, durations as h:mm:ss', async () => {
    const res = await call(testUsers.analyst, `/api/association/observatory/transit?${period}&format=csv`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe('attachment; filename="transit-times-2026-02-02-2026-02-15.csv"');
    const [head, ...lines] = res.body.trim().split('\n');
    expect(head).toBe(
      'Period from,Corridor,From,To,Length (km),Trucks of,Trips,Trucks,Median transit time,"Transit time, 90th percentile",Transit speed (km/h),Trips that left the corridor,Trips that stopped over a day,Withheld (too few trucks)',
    );
    expect(lines).toContain(`${W1},northern,Webuye weighbridge,Malaba OSBP,57,all companies,4,4,1:05:00,1:10:54,52.6,1,0,no`);
  });

  it('xlsx with the same rows', async () => {
    const res = await call(testUsers.analyst, `/api/association/observatory/dwell?${period}`.replace('?', '?format=xlsx&'));
    expect(res.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = wb.worksheets[0]!;
    expect(sheet.name).toBe('waiting-times');
    expect(sheet.getRow(2).getCell(2).value).toBe('Malaba OSBP');
    expect(sheet.getRow(2).getCell(7).value).toBe(6); // visits
  });
});

describe('settings', () => {
  it('an officer sets the thresholds (audited), an analyst may read but not set them, and the share follows', async () => {
    const before = await json<ObservatorySettings>(testUsers.analyst, '/api/association/observatory/settings');
    expect(before).toMatchObject({ minTrucks: 3, minStopMinutes: 10, dwellThresholdMinutes: { border_post: 240 }, updatedBy: null });
    const input = { ...before, dwellThresholdMinutes: { ...before.dwellThresholdMinutes, border_post: 120 } };
    delete (input as Partial<ObservatorySettings>).updatedAt;
    delete (input as Partial<ObservatorySettings>).updatedBy;
    expect((await call(testUsers.analyst, '/api/association/observatory/settings', 'PUT', input)).statusCode).toBe(403);
    const bad = await call(testUsers.officer, '/api/association/observatory/settings', 'PUT', { ...input, minTrucks: 2 });
    expect(bad.statusCode).toBe(400);
    const set = await call(testUsers.officer, '/api/association/observatory/settings', 'PUT', input);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<ObservatorySettings>()).toMatchObject({
      dwellThresholdMinutes: { border_post: 120 },
      updatedBy: testUsers.officer.userId,
    });
    const r = await json<ObservatoryDwellReport>(testUsers.analyst, `/api/association/observatory/dwell?${period}`);
    expect(r.items[0]).toMatchObject({ thresholdSeconds: 7_200, overThreshold: 3, overThresholdShare: 0.5 }); // 18,000, 11,400 and 9,000 s over 2 h
    const audit = await json<{ items: { action: string; after: unknown }[] }>(
      testUsers.officer,
      '/api/audit/operations?entityType=observatory_settings',
    );
    expect(audit.items[0]).toMatchObject({ action: 'observatory.settings', after: { dwellThresholdMinutes: { border_post: 120 } } });
    await call(testUsers.officer, '/api/association/observatory/settings', 'PUT', {
      ...input,
      dwellThresholdMinutes: before.dwellThresholdMinutes,
    });
  });
});

describe('open data', () => {
  it('needs no sign-in, names neither trucks nor companies, withholds cells under minTrucks and keeps its columns', async () => {
    const res = await call(undefined, '/api/observatory/open-data?interval=week&from=2026-02-02T00:00:00Z&to=2026-02-16T00:00:00Z');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const [head, ...lines] = res.body.trim().split('\n');
    expect(head).toBe(
      'schemaVersion,indicator,periodStart,periodEnd,corridor,fromPlace,toPlace,place,placeKind,direction,count,trucks,medianSeconds,p90Seconds,overThresholdShare,thresholdSeconds,distanceKm,stopsPer1000Km,minTrucks,suppressed',
    );
    expect(lines).toContain(`2,dwell,${W1},${W2},northern,,,Malaba OSBP,border_post,both,6,6,8100,14700,0.167,14400,,,3,false`);
    expect(lines).toContain(`2,dwell,${W2},2026-02-16,northern,,,Malaba OSBP,border_post,both,,,,,,14400,,,3,true`); // two trucks: withheld, under a threshold of 3
    expect(res.body).not.toMatch(/Pwani|Msasani|company/i);
    const data = await json<ObservatoryOpenData>(
      undefined,
      '/api/observatory/open-data?interval=week&from=2026-02-02T00:00:00Z&to=2026-02-16T00:00:00Z&format=json',
    );
    expect(data).toMatchObject({ schemaVersion: 2, minTrucks: 3, interval: 'week' });
    expect(data.rows.filter((r) => r.indicator === 'transit' && !r.suppressed)).toEqual([
      expect.objectContaining({
        fromPlace: 'Webuye weighbridge',
        toPlace: 'Malaba OSBP',
        direction: 'forward',
        count: 4,
        trucks: 4,
        medianSeconds: 3_900,
      }),
    ]);
  });

  it('gives whole periods only: the week under way is left out', async () => {
    const data = await json<ObservatoryOpenData>(
      undefined,
      '/api/observatory/open-data?interval=week&from=2026-02-02T00:00:00Z&to=2026-02-12T00:00:00Z&format=json',
    );
    expect(data.period).toEqual({ from: '2026-02-02T00:00:00.000Z', to: '2026-02-09T00:00:00.000Z' });
    expect(new Set(data.rows.map((r) => r.periodStart))).toEqual(new Set([W1]));
  });
});

describe('a company role without a company', () => {
  it('sees no series of its own', async () => {
    const r = await json<ObservatoryDwellReport>(userWith(['company_user'], null), `/api/association/observatory/dwell?${period}`);
    expect(r.items.every((i) => i.series === 'others')).toBe(true);
  });
});
