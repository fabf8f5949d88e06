import { describe, expect, it } from 'vitest';
import { distanceMetres } from '@corridor/geodata';
import { demoIncidents } from '../stack/demo/incidents';
import { IncidentScript } from './incidents';
import { seededRandom } from './random';
import { simDeviceIds, simFleetPlans } from './simulator';
import { NO_NOISE, Truck, type Fix, type GpsNoise } from './truck';
import { truckReports } from './truck-reports';

const acceptAll = { protocol: 'test', send: async () => true };

/**
 * The demo's live fleet (tools/stack: the console's browser tests run 12 trucks reporting every
 * second, with the four scripted incidents) driven as the simulator drives it (truck-reports.ts),
 * on a clock of the test's own: each truck's timer fires every second, late by up to 50 ms, and one
 * tick in fifty by up to 900 ms (a busy event loop); one report in a hundred finds the previous
 * still being sent and is skipped. Fix times as the platform stores them: whole seconds.
 */
function simulatedRun(o: { trucks: number; hours: number; timeScale: number; noise?: GpsNoise }): Fix[][] {
  const ids = simDeviceIds(o.trucks);
  const plans = simFleetPlans(o.trucks, ids);
  const incidents = demoIncidents(ids);
  const random = seededRandom(11);
  const clock = seededRandom(12);
  const t0 = Date.UTC(2026, 10, 29, 5, 0, 0, 437);
  const trucks = plans.map((plan) => {
    const truck = new Truck(plan, { sender: acceptAll, random, ...(o.noise ? { noise: o.noise } : {}) });
    const incident = incidents.get(plan.deviceId);
    const script = incident ? new IncidentScript(incident, plan.corridor.id, t0, o.timeScale) : undefined;
    return { reports: truckReports(truck, script, o.timeScale, t0), next: t0 + Math.round(clock() * 1000), fixes: [] as Fix[] };
  });
  const end = t0 + o.hours * 3_600_000;
  for (;;) {
    const due = trucks.reduce((a, b) => (b.next < a.next ? b : a));
    if (due.next > end) break;
    const fix = due.reports(due.next, clock() >= 0.01);
    due.next += 1000 + (clock() < 0.02 ? clock() * 900 : clock() * 50);
    if (!fix) continue;
    const stored = { ...fix, time: new Date(Math.floor(fix.time.getTime() / 1000) * 1000) };
    // a second report within one second is the same stored position (its id is per device and second)
    if (due.fixes.at(-1)?.time.getTime() !== stored.time.getTime()) due.fixes.push(stored);
  }
  return trucks.map((t) => t.fixes);
}

interface Leg {
  truck: number;
  metres: number;
  seconds: number;
  /** The faster end's speed, m/s. */
  faster: number;
  at: string;
}

const legsOf = (fixes: Fix[][]): Leg[] =>
  fixes.flatMap((f, truck) =>
    f.slice(1).map((b, i) => {
      const a = f[i]!;
      return {
        truck,
        metres: distanceMetres([a.lon, a.lat], [b.lon, b.lat]),
        seconds: (b.time.getTime() - a.time.getTime()) / 1000,
        faster: Math.max(a.speedKph, b.speedKph) / 3.6,
        at: b.time.toISOString(),
      };
    }),
  );

describe("the demo fleet's fixes, as the platform stores them", () => {
  it('move no farther from the previous fix than the speeds they report allow (no GPS noise: exactly, to a metre)', () => {
    const fixes = simulatedRun({ trucks: 12, hours: 2, timeScale: 1, noise: NO_NOISE });
    expect(
      fixes.every((f) => f.length > 3_000),
      'every truck reported, the silent one for half the time',
    ).toBe(true);
    const legs = legsOf(fixes);
    // reports seconds apart (the silent truck's half hour apart: it drove on meanwhile, at most at its top speed)
    const silence = legs.filter((l) => l.seconds > 60);
    expect(silence.length).toBeGreaterThan(0);
    expect(silence.every((l) => l.truck === 2)).toBe(true);
    const top = Math.max(...fixes[2]!.map((f) => f.speedKph / 3.6));
    for (const l of silence) expect(l.metres, `truck ${l.truck + 1} at ${l.at}`).toBeLessThanOrEqual(top * l.seconds + 1);
    const over = legs.filter((l) => l.seconds <= 60 && l.metres > l.faster * l.seconds + 1);
    expect(over, 'legs longer than their speed covers').toEqual([]);
    // the off-corridor truck did leave its corridor and come back (the legs above include those)
    const offCorridor = fixes[0]!.filter((f, i) => i > 0 && f.courseDeg !== fixes[0]![i - 1]!.courseDeg);
    expect(offCorridor.length).toBeGreaterThan(0);
  });

  it('with GPS noise as the simulator adds it, stray from that by no more than the error of two fixes', () => {
    const legs = legsOf(simulatedRun({ trucks: 12, hours: 1, timeScale: 1 }));
    // positions off by |N(0,1)| × 4 m each and speeds by N(0,1) × 1.5 km/h: 30 m (the reports' allowance) and 3 km/h
    const over = legs.filter((l) => l.seconds <= 60 && l.metres > (l.faster + 3 / 3.6) * l.seconds + 30);
    expect(over).toEqual([]);
  });

  it('with time compressed, report the ground speed their positions move at', () => {
    const legs = legsOf(simulatedRun({ trucks: 12, hours: 0.25, timeScale: 5, noise: NO_NOISE }));
    expect(legs.filter((l) => l.seconds <= 60 && l.metres > l.faster * l.seconds + 1)).toEqual([]);
    const moving = legs.filter((l) => l.seconds <= 60 && l.faster > 0);
    const bySpeed = moving.reduce((m, l) => m + l.faster * l.seconds, 0);
    // legs are chords of a winding corridor: most of the distance the speeds give
    expect(moving.reduce((m, l) => m + l.metres, 0) / bySpeed).toBeGreaterThan(0.9);
  });
});
