import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, ObservatoryDwellReport, ObservatoryStopsReport, ObservatoryTransitReport } from '@corridor/contracts';
import { observatoryStateKey } from '@corridor/geofence/observatory/observatory-tracker';
import { TrackBuilder, ugandaToWebuye, webuyeToMalaba } from '@corridor/geofence/observatory/track-builder';
import type { TrackFix } from '@corridor/geofence/observatory/tracker';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { gt06Location, gt06Login, isGt06Ack, splitGt06Replies, GT06_LOCATION, GT06_LOGIN } from '../sim/senders/gt06-encoder';
import { TestDevice } from '../../services/ingest/test/test-device';
import { ADMIN_AUTH, eventually, startTestStack, type Res, type TestStack, type TestUser } from './test-stack';

/**
 * The corridor observatory end to end on constructed tracks with known answers (issue 30): each
 * truck's track is sent as a GT06 tracker sends it (login, then one location frame a minute, fix
 * times weeks in the past, over TCP to ingest's GT06 port, each frame acknowledged after
 * positions.v1 took it), through the bus to the geofence service's observatory tracker (its facts
 * in ClickHouse) and its daily rollup, and read back through the gateway from the observatory API
 * as an association analyst and as a company. Runs on the real parts the environment has.
 *
 * Two whole weeks in the past, the tracks built by @corridor/geofence's TrackBuilder along the
 * Northern Corridor's line (a fix every minute; GT06 carries whole seconds and whole km/h):
 * - week 1: truck A (company 101) from Webuye to Malaba, waiting 3 h 10 min at the border post,
 *   then into Uganda (forward); truck B (company 202) from Uganda through Malaba (1 h) to Webuye
 *   (reverse);
 * - week 2: truck C (101) from Webuye to Malaba by a side road 5 km off the line (the trip leaves
 *   the corridor: counted apart); truck D (202) straight on the line with a 30-minute roadside
 *   stop (counted, and the one stop outside an authorized place).
 *
 * Each truck's last fix is the marker: once the tracker has saved the truck's state at that fix
 * (it writes the facts first), every fact of the track is in ClickHouse; the rollup (at most once
 * every 30 s in the service) is then run at once with flush(), and the API must answer exactly.
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A duration read back within the fix interval (one fix a minute). */
const FIX_INTERVAL_S = 60;

/** Monday 00:00 UTC of the week holding `t`. */
const mondayOf = (t: number): number => {
  const d = new Date(Math.floor(t / DAY) * DAY);
  return d.getTime() - ((d.getUTCDay() + 6) % 7) * DAY;
};
const W1 = mondayOf(Date.now()) - 14 * DAY;
const W2 = W1 + 7 * DAY;
const iso = (t: number): string => new Date(t).toISOString();
const dayOf = (t: number): string => iso(t).slice(0, 10);

interface Track<M extends string> {
  fixes: TrackFix[];
  /** the construction's own times (ms) */
  marks: Record<M, number>;
}

/** A: 10 km before Webuye, 20 min there, on to Malaba, 3 h 10 min there, 1.5 km into Uganda (forward). */
function truckA(start: number): Track<'leftWebuye' | 'atMalaba' | 'leftMalaba'> {
  const { b, leftWebuye, atMalaba, leftMalaba } = webuyeToMalaba(start);
  return { fixes: b.fixes, marks: { leftWebuye, atMalaba, leftMalaba } };
}

/** B: from 3 km into Uganda through Malaba (1 h) to Webuye (10 min), then 5 km on toward Nairobi (reverse). */
function truckB(start: number): Track<'atMalaba' | 'leftMalaba' | 'atWebuye'> {
  const { b, atMalaba, leftMalaba, atWebuye } = ugandaToWebuye(start);
  return { fixes: b.fixes, marks: { atMalaba, leftMalaba, atWebuye } };
}

/** Webuye to Malaba in week 2: C by a side road 5 km off the line (20 min there), D on the line with a 30-minute roadside stop. */
function weekTwo(start: number, how: 'side road' | 'roadside stop'): Track<'leftWebuye' | 'atMalaba'> {
  const b = new TrackBuilder('northern', { at: 0, time: start });
  b.along = b.alongOf('ke-wb-webuye') - 5_000;
  b.fix(60)
    .drive('ke-wb-webuye', 60)
    .wait(15 * MINUTE);
  const leftWebuye = b.t + MINUTE;
  b.drive(b.alongOf('ke-wb-webuye') + 15_000, 60);
  if (how === 'side road')
    b.swerve(5_000, 5 * MINUTE)
      .wait(20 * MINUTE)
      .swerve(0, 5 * MINUTE);
  else b.wait(30 * MINUTE);
  b.drive('ke-malaba', 60);
  const atMalaba = b.t;
  // 20 min at the post: the tracker writes a day's running distance every 15 min of fixes, so all of the drive is written
  b.wait(20 * MINUTE).drive(b.length + 1_500, 90);
  return { fixes: b.fixes, marks: { leftWebuye, atMalaba } };
}

/** Seconds of a duration as GT06 carries its ends (whole seconds). */
const wholeSeconds = (from: number, to: number): number => Math.floor(to / 1000) - Math.floor(from / 1000);

let s: TestStack;
let analyst: TestUser;
let company101: TestUser;
let gt06Port: number;

const ok = <T>(res: Res, status = 200): T => {
  expect(res.statusCode, res.body).toBe(status);
  return res.json<T>();
};

/** A GT06 tracker registered for `companyId` through the API, known to ingest before it logs in. */
async function registerTracker(imei: string, companyId: number): Promise<Device> {
  const device = ok<Device>(
    await s.call(ADMIN_AUTH, 'POST', '/api/devices', { name: `observatory e2e ${imei}`, uniqueId: imei, companyId }),
  );
  await eventually(`${imei} in the ingest registry`, async () => s.ingest.registry.lookup(imei), 60_000);
  return device;
}

/**
 * Sends a track as the tracker would: a login, then the fixes in order (20 frames per write, as a
 * device catching up after a gap), each write's acknowledgements awaited before the next.
 */
async function sendTrack(imei: string, fixes: readonly TrackFix[]): Promise<void> {
  const device = await TestDevice.open(gt06Port);
  try {
    let serial = 1;
    let acked = 0;
    const expectAcks = async (frames: { type: number; serial: number }[]) => {
      const want = acked + frames.length;
      await device.waitReceived(want * 10, 60_000);
      const replies = splitGt06Replies(device.received).frames.slice(acked, want);
      replies.forEach((r, i) => expect(isGt06Ack(r, frames[i]!.type, frames[i]!.serial), `ack of frame ${frames[i]!.serial}`).toBe(true));
      acked = want;
    };
    await device.write(gt06Login(imei, serial), true);
    await expectAcks([{ type: GT06_LOGIN, serial }]);
    for (let i = 0; i < fixes.length; i += 20) {
      const chunk = fixes.slice(i, i + 20).map((f) => {
        serial += 1;
        const bytes = gt06Location(
          {
            deviceId: imei,
            time: new Date(f.t),
            lat: f.lat,
            lon: f.lon,
            speedKph: f.speedKmh,
            courseDeg: 0,
            altitudeM: 1200,
            accuracyM: 5,
            batteryPct: 90,
          },
          serial,
        );
        return { bytes, type: GT06_LOCATION, serial };
      });
      await device.write(Buffer.concat(chunk.map((c) => c.bytes)), true);
      await expectAcks(chunk);
    }
  } finally {
    device.close();
  }
}

/** Resolves once the observatory tracker has saved the device's state at fix time `t` (its facts written before). */
const trackedUpTo = (deviceId: number, t: number) =>
  eventually(
    `observatory state of device ${deviceId} at ${iso(t)}`,
    async () => {
      const raw = await s.adapters.cache.get(observatoryStateKey(deviceId));
      return raw && (JSON.parse(raw) as { t: number }).t >= Math.floor(t / 1000) * 1000 ? true : undefined;
    },
    90_000,
  );

const period = `from=${iso(W1)}&to=${iso(W2 + 7 * DAY - 1000)}&corridor=northern`;
const api = <T>(who: TestUser, path: string): Promise<T> =>
  s.call(who.auth, 'GET', `/api/association/observatory/${path}`).then((r) => ok<T>(r));

const tracks = {
  a: truckA(W1 + 5 * HOUR),
  b: truckB(W1 + 6 * HOUR),
  c: weekTwo(W2 + 5 * HOUR, 'side road'),
  d: weekTwo(W2 + 6 * HOUR, 'roadside stop'),
};
const devices: Record<keyof typeof tracks, Device> = {} as Record<keyof typeof tracks, Device>;

beforeAll(async () => {
  s = await startTestStack(await primaryKind());
  analyst = await s.user(['association_analyst'], null);
  company101 = await s.user(['company_user'], 101);
  gt06Port = await s.ingest.ports.tcp.gt06.listen(0, '127.0.0.1');
  const stamp = String(Date.now()).slice(-9);
  const companies = { a: 101, b: 202, c: 101, d: 202 } as const;
  for (const [i, key] of (['a', 'b', 'c', 'd'] as const).entries()) {
    const imei = `35${i + 1}000${stamp}`.slice(0, 15).padEnd(15, '0');
    devices[key] = await registerTracker(imei, companies[key]);
  }
  await Promise.all((['a', 'b', 'c', 'd'] as const).map((k) => sendTrack(devices[k].uniqueId, tracks[k].fixes)));
  for (const k of ['a', 'b', 'c', 'd'] as const) await trackedUpTo(devices[k].id, tracks[k].fixes.at(-1)!.t);
  // the daily indicators of the days these facts touched, now rather than at the next 30-second turn
  await s.geofence.observatory.rollup.flush();
}, 300_000);

afterAll(async () => {
  await s?.close();
});

describe('the observatory from GT06 trackers to the API, on known tracks', () => {
  it('a truck that waits 3 h 10 min at Malaba reads 3 h 10 min in the forward dwell of its week; the truck the other way is apart', async () => {
    const forward = await api<ObservatoryDwellReport>(analyst, `dwell?${period}&direction=forward&kind=border_post`);
    const malabaFwd = forward.items.filter((r) => r.placeName.startsWith('Malaba'));
    const w1 = malabaFwd.find((r) => r.periodStart === dayOf(W1))!;
    expect(w1).toMatchObject({ series: 'all', visits: 1, trucks: 1, direction: 'forward', corridor: 'northern', suppressed: false });
    expect(Math.abs(w1.medianSeconds! - (3 * 3600 + 10 * 60))).toBeLessThanOrEqual(FIX_INTERVAL_S);
    expect(w1.medianSeconds).toBe(w1.p90Seconds); // one visit
    // the default threshold at border posts is 4 h: 3 h 10 min is under it
    expect(w1).toMatchObject({ overThreshold: 0, overThresholdShare: 0 });

    const reverse = await api<ObservatoryDwellReport>(analyst, `dwell?${period}&direction=reverse&kind=border_post`);
    const w1Rev = reverse.items.find((r) => r.placeName.startsWith('Malaba') && r.periodStart === dayOf(W1))!;
    // B: entered at the first fix inside the post's circle (36 s before its centre), left at the first fix beyond its margin
    const bDwell = tracks.b.marks.leftMalaba - tracks.b.marks.atMalaba;
    expect(w1Rev).toMatchObject({ visits: 1, trucks: 1, direction: 'reverse' });
    expect(w1Rev.medianSeconds! - bDwell / 1000).toBeGreaterThanOrEqual(0);
    expect(w1Rev.medianSeconds! - bDwell / 1000).toBeLessThanOrEqual(2 * FIX_INTERVAL_S);

    const both = await api<ObservatoryDwellReport>(analyst, `dwell?${period}&kind=border_post`);
    expect(both.items.find((r) => r.placeName.startsWith('Malaba') && r.periodStart === dayOf(W1))).toMatchObject({
      visits: 2,
      trucks: 2,
      direction: 'both',
    });
  });

  it('transit per segment tells the directions apart: Webuye to Malaba forward, Malaba to Webuye reverse', async () => {
    const r = await api<ObservatoryTransitReport>(analyst, `transit?${period}&kind=segment`);
    const w1 = r.items.filter((i) => i.periodStart === dayOf(W1));
    const fwd = w1.filter((i) => i.direction === 'forward');
    const rev = w1.filter((i) => i.direction === 'reverse');
    expect(fwd.map((i) => [i.fromName, i.toName, i.trips])).toEqual([['Webuye weighbridge', 'Malaba OSBP', 1]]);
    expect(rev.map((i) => [i.fromName, i.toName, i.trips])).toEqual([['Malaba OSBP', 'Webuye weighbridge', 1]]);
    const a = tracks.a.marks;
    expect(Math.abs(fwd[0]!.medianSeconds! - wholeSeconds(a.leftWebuye, a.atMalaba))).toBeLessThanOrEqual(FIX_INTERVAL_S);
    const b = tracks.b.marks;
    expect(Math.abs(rev[0]!.medianSeconds! - wholeSeconds(b.leftMalaba, b.atWebuye))).toBeLessThanOrEqual(FIX_INTERVAL_S);
    expect(fwd[0]).toMatchObject({ excludedLeftCorridor: 0, excludedLongStop: 0, trucks: 1 });
  });

  it('a trip that leaves the corridor is excluded from the transit time and counted apart', async () => {
    const r = await api<ObservatoryTransitReport>(analyst, `transit?${period}&kind=segment&direction=forward`);
    const w2 = r.items.filter((i) => i.periodStart === dayOf(W2));
    expect(w2.map((i) => [i.fromName, i.toName, i.trips, i.excludedLeftCorridor, i.excludedLongStop])).toEqual([
      ['Webuye weighbridge', 'Malaba OSBP', 1, 1, 0],
    ]);
    // the median is D's trip alone (its 30-minute stop included), not C's detour
    const d = tracks.d.marks;
    expect(Math.abs(w2[0]!.medianSeconds! - wholeSeconds(d.leftWebuye, d.atMalaba))).toBeLessThanOrEqual(FIX_INTERVAL_S);
    expect(w2[0]!.trucks).toBe(1);
  });

  it('stops outside authorized places per 1,000 km: the roadside stop counts, waits at the places and the stop off the corridor do not', async () => {
    const r = await api<ObservatoryStopsReport>(analyst, `stops?${period}`);
    const byWeek = Object.fromEntries(r.items.map((i) => [i.periodStart, i]));
    expect(byWeek[dayOf(W1)]).toMatchObject({ corridor: 'northern', stops: 0, stopsPer1000Km: 0, trucks: 2 });
    const w2 = byWeek[dayOf(W2)]!;
    expect(w2).toMatchObject({ stops: 1, trucks: 2 });
    // C and D each drove about 62 km on the corridor from 5 km before Webuye to Malaba, C 5 km more coming back from its side road
    expect(w2.distanceKm).toBeGreaterThan(115);
    expect(w2.distanceKm).toBeLessThan(140);
    expect(w2.stopsPer1000Km).toBeCloseTo(1000 / w2.distanceKm!, 1);
  });

  it('a company sees its own trucks against the others together: nothing of the other company named, a single truck withheld', async () => {
    const r = await api<ObservatoryDwellReport>(company101, `dwell?${period}&direction=forward&kind=border_post`);
    const malaba = r.items.filter((i) => i.placeName.startsWith('Malaba') && i.periodStart === dayOf(W1));
    const own = malaba.find((i) => i.series === 'company')!;
    expect(own).toMatchObject({ companyId: 101, visits: 1, trucks: 1 });
    expect(Math.abs(own.medianSeconds! - 11_400)).toBeLessThanOrEqual(FIX_INTERVAL_S);
    // the others this week are B alone (reverse, so none forward) or nothing: never figures of fewer than minTrucks trucks
    for (const other of r.items.filter((i) => i.series === 'others')) {
      expect(other.companyId).toBeNull();
      if (other.trucks === null) expect(other).toMatchObject({ suppressed: true, visits: null, medianSeconds: null });
      else expect(other.trucks).toBeGreaterThanOrEqual(r.minTrucks);
    }
    const body = JSON.stringify(await api<ObservatoryTransitReport>(company101, `transit?${period}`));
    expect(body).not.toContain('"companyId":202');
    for (const k of ['b', 'd'] as const) expect(body).not.toContain(devices[k].uniqueId);
  });
});
