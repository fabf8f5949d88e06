import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics, type DeviceRegistryMessage, type Geofence, type PositionMessage } from '@corridor/contracts';
import { cacheKeys, insertPositions } from '@corridor/platform';
import { adapterKinds, createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import { eventually } from '@corridor/platform/testing/eventually';
import type { GeofenceService } from '../src/app';
import { observatoryStateKey } from '../src/observatory/observatory-tracker';
import { TrackBuilder } from '../src/observatory/track-builder';
import type { TrackFix } from '../src/observatory/tracker';
import { positionAt, startService } from './harness';

/**
 * The observatory tracker inside the geofence service: positions.v1 in, facts in ClickHouse out,
 * over the seeded places; and the backfill from positions already stored.
 */
const kinds = await adapterKinds();
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const T0 = Date.parse('2026-02-02T05:00:00Z');

/** 10 km before Webuye weighbridge, 20 min there, on to Malaba, 3 h 10 min there, into Uganda. */
function webuyeToMalaba(start: number) {
  const b = new TrackBuilder('northern', { at: 0, time: start });
  b.along = b.alongOf('ke-wb-webuye') - 10_000;
  b.fix(60)
    .drive('ke-wb-webuye', 60)
    .wait(20 * MINUTE);
  const leftWebuye = b.t + MINUTE;
  b.drive('ke-malaba', 60);
  const atMalaba = b.t;
  b.wait(3 * HOUR + 9 * MINUTE).drive(b.length + 1_500, 90);
  return { fixes: b.fixes, leftWebuye, atMalaba, leftMalaba: b.t };
}

const positionsOf = (deviceId: number, fixes: readonly TrackFix[]): PositionMessage[] =>
  fixes.map((f) => positionAt(deviceId, new Date(f.t), [f.lon, f.lat], { speed: f.speedKmh / 1.852, uniqueId: `obs-${deviceId}` }));

describe.each(kinds)('observatory tracker in the geofence service (%s adapters)', (kind) => {
  let adapters: TestAdapters;
  let svc: GeofenceService;
  // both kinds share one chDB in this process: device ids differ
  const device = (n: number): number => (kind === 'embedded' ? 7100 : 7200) + n;

  beforeAll(async () => {
    adapters = await createTestAdapters(kind);
    svc = await startService(adapters);
  });
  afterAll(async () => {
    await svc?.close();
    await adapters?.close();
  });

  const ch = () => adapters.analytics;
  const rows = async <T>(query: string, params: Record<string, unknown> = {}): Promise<T[]> =>
    (await ch().client.query({ query, query_params: params, format: 'JSONEachRow' })).json<T>();
  const fenceId = async (name: string): Promise<string> => {
    const res = await svc.app.inject({
      method: 'GET',
      url: `/api/geofences?keyword=${encodeURIComponent(name)}`,
      headers: await asUser(testUsers.admin),
    });
    return String(res.json<Geofence[]>()[0]!.id);
  };
  const register = async (deviceId: number, companyId: number) => {
    const entry: DeviceRegistryMessage = {
      id: deviceId,
      uniqueId: `obs-${deviceId}`,
      name: `truck ${deviceId}`,
      disabled: false,
      companyId,
      groupId: null,
      status: 'online',
      deleted: false,
    };
    await adapters.cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
  };
  const publish = (positions: PositionMessage[]) =>
    adapters.bus.publish(
      Topics.positions,
      positions.map((p) => ({ key: String(p.deviceId), value: p })),
    );
  /** Resolves once the tracker has saved the device's state at the fix time `t` (all before it is handled). */
  const trackedUpTo = (deviceId: number, t: number) =>
    eventually(`observatory state of ${deviceId} at ${new Date(t).toISOString()}`, async () => {
      const raw = await adapters.cache.get(observatoryStateKey(deviceId));
      return raw && (JSON.parse(raw) as { t: number }).t >= t ? true : undefined;
    });
  const countsOf = async (deviceId: number) =>
    (
      await rows<{ visits: string; legs: string; stops: string }>(
        `
      SELECT (SELECT toString(count()) FROM ${ch().database}.obs_visits FINAL WHERE device_id = {d:UInt64}) AS visits,
             (SELECT toString(count()) FROM ${ch().database}.obs_legs FINAL WHERE device_id = {d:UInt64}) AS legs,
             (SELECT toString(count()) FROM ${ch().database}.obs_stops FINAL WHERE device_id = {d:UInt64}) AS stops`,
        { d: deviceId },
      )
    )[0];

  const malabaDaily = async (placeId: string, companyId: number, exitedAt: number) =>
    (
      await rows<{ visits: string; trucks: string; minutes: Record<string, number> }>(
        `
      SELECT toString(sum(visits)) AS visits, toString(groupBitmapMerge(trucks)) AS trucks, sumMap(minutes) AS minutes FROM ${ch().database}.obs_visits_daily FINAL
      WHERE place_id = {p:String} AND company_id = {c:UInt64} AND day = {day:Date}`,
        { p: placeId, c: companyId, day: new Date(exitedAt).toISOString().slice(0, 10) },
      )
    )[0];

  it('a truck that waits 3 h 10 min at Malaba: the visit and the leg from Webuye in ClickHouse, with its company; redelivery adds nothing', async () => {
    const d = device(1);
    await register(d, 101);
    const track = webuyeToMalaba(T0);
    const positions = positionsOf(d, track.fixes);
    await publish(positions);
    await trackedUpTo(d, track.leftMalaba);
    const malaba = await fenceId('Malaba');
    const webuye = await fenceId('Webuye');
    const visits = await rows<{ place_id: string; dwell_s: number; direction: number; company_id: string; corridor: string }>(
      `SELECT place_id, dwell_s, direction, toString(company_id) AS company_id, corridor FROM ${ch().database}.obs_visits FINAL WHERE device_id = {d:UInt64} ORDER BY exited_at`,
      { d },
    );
    expect(visits).toEqual([
      { place_id: webuye, dwell_s: 21 * 60, direction: 1, company_id: '101', corridor: 'northern' },
      { place_id: malaba, dwell_s: 11_400, direction: 1, company_id: '101', corridor: 'northern' },
    ]);
    const legs = await rows<{ from_place: string; to_place: string; transit_s: number; excluded: string; kind: string }>(
      `SELECT from_place, to_place, transit_s, excluded, kind FROM ${ch().database}.obs_legs FINAL WHERE device_id = {d:UInt64}`,
      { d },
    );
    expect(legs).toEqual([
      { from_place: webuye, to_place: malaba, transit_s: (track.atMalaba - track.leftWebuye) / 1000, excluded: '', kind: 'segment' },
    ]);
    const before = await countsOf(d);

    // the whole track again (a redelivery), then one later fix as the marker: nothing new
    await publish([...positions, positionAt(d, new Date(track.leftMalaba + HOUR), [34.1, 0.64], { uniqueId: `obs-${d}` })]);
    await trackedUpTo(d, track.leftMalaba + HOUR);
    expect(await countsOf(d)).toEqual(before);
    // the daily indicator the API reads, recomputed after the facts: one visit of 190 minutes however often the fixes came
    await svc.observatory.rollup.flush();
    expect(await malabaDaily(malaba, 101, track.leftMalaba)).toEqual({ visits: '1', trucks: '1', minutes: { 190: 1 } });
  });

  it('backfills from positions already stored: the same facts as live, and twice is once', async () => {
    const d = device(2);
    await register(d, 202);
    const track = webuyeToMalaba(T0 - 7 * 24 * HOUR);
    await insertPositions(ch())(positionsOf(d, track.fixes));
    const opts = { from: new Date(T0 - 8 * 24 * HOUR), to: new Date(T0 - 5 * 24 * HOUR), deviceIds: [d] };
    const first = await svc.observatory.backfill(opts);
    expect(first).toMatchObject({ devices: 1, fixes: track.fixes.length });
    const counts = await countsOf(d);
    expect(counts).toMatchObject({ visits: '2', legs: '1' });
    await svc.observatory.backfill(opts);
    expect(await countsOf(d)).toEqual(counts);
    const [malaba] = await rows<{ dwell_s: number; company_id: string }>(
      `SELECT dwell_s, toString(company_id) AS company_id FROM ${ch().database}.obs_visits FINAL WHERE device_id = {d:UInt64} AND place_name LIKE 'Malaba%'`,
      { d },
    );
    expect(malaba).toEqual({ dwell_s: 11_400, company_id: '202' });
    // the backfill answers once its days' indicators are recomputed
    expect(await malabaDaily(await fenceId('Malaba'), 202, track.leftMalaba)).toEqual({ visits: '1', trucks: '1', minutes: { 190: 1 } });
    const [distance] = await rows<{ km: number }>(
      `SELECT sum(distance_m) / 1000 AS km FROM ${ch().database}.obs_distance FINAL WHERE device_id = {d:UInt64}`,
      { d },
    );
    expect(distance!.km).toBeGreaterThan(60); // 10 km to Webuye, about 57 km on to Malaba, 1.5 km into Uganda
    expect(distance!.km).toBeLessThan(72);
  });
});
