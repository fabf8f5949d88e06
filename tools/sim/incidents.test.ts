import { describe, expect, it } from 'vitest';
import { distanceMetres, measureLine, NORTHERN_CORRIDOR, projectOnLine } from '@corridor/geodata';
import { IncidentScript, type IncidentPlan } from './incidents';
import { seededRandom } from './random';
import { NO_NOISE, Truck, type Fix, type PlannedStop, type Sender } from './truck';
import { truckReports } from './truck-reports';

const acceptAll: Sender = { protocol: 'test', send: async () => true };
const measured = measureLine(NORTHERN_CORRIDOR.line);

/** Drives one truck through a scripted incident as the simulator does (truck-reports.ts), a report every `stepS` seconds. */
function drive(plan: IncidentPlan, seconds: number, stepS = 5, timeScale = 1, stops: readonly PlannedStop[] = []): Fix[] {
  const truck = new Truck(
    {
      deviceId: '356000000000001',
      corridor: NORTHERN_CORRIDOR,
      direction: 'forward',
      startAlong: 150_000,
      cruiseKph: 72,
      stops,
      terminalDwellSeconds: 600,
    },
    { sender: acceptAll, random: seededRandom(3), noise: NO_NOISE },
  );
  const t0 = Date.UTC(2026, 0, 5, 8);
  const reports = truckReports(truck, new IncidentScript(plan, 'northern', t0, timeScale), timeScale, t0);
  const fixes: Fix[] = [];
  for (let s = 0; s <= seconds; s += stepS) {
    const fix = reports(t0 + s * 1000, true);
    if (fix) fixes.push(fix);
  }
  return fixes;
}

const offset = (f: Fix): number => projectOnLine(measured, [f.lon, f.lat]).offset;

describe('an off-corridor incident', () => {
  const plan: IncidentPlan = { kind: 'offCorridor', startAfterS: 60, durationS: 30 * 60, offsetM: 6_000 };

  it('moves no farther between two fixes than their speed allows, on the way out, along the parallel road and back', () => {
    const fixes = drive(plan, 60 * 60);
    for (let i = 1; i < fixes.length; i++) {
      const a = fixes[i - 1]!;
      const b = fixes[i]!;
      const seconds = (b.time.getTime() - a.time.getTime()) / 1000;
      // the speed is the same at both ends here (no noise, open road): the leg fits it (1 m for rounding)
      expect(distanceMetres([a.lon, a.lat], [b.lon, b.lat]), `leg ${i}`).toBeLessThanOrEqual(
        (Math.max(a.speedKph, b.speedKph) / 3.6) * seconds + 1,
      );
    }
  });

  it('reaches the parallel road, keeps to it, and comes back to the corridor after the incident', () => {
    const fixes = drive(plan, 60 * 60);
    const at = (s: number) => fixes[Math.round(s / 5)]!;
    expect(offset(at(50))).toBeLessThan(5);
    // 72 km/h, sin 60°: about 17 m/s sideways, so 6 km in about six minutes
    expect(offset(at(60 + 120))).toBeGreaterThan(1_500);
    expect(offset(at(60 + 120))).toBeLessThan(2_500);
    expect(offset(at(60 + 15 * 60))).toBeCloseTo(6_000, -2);
    expect(offset(at(60 + 30 * 60 + 10 * 60))).toBeLessThan(5);
  });

  it('with time compressed, reports the ground speed its fixes move at', () => {
    const fixes = drive(plan, 20 * 60, 5, 4);
    let path = 0;
    let bySpeed = 0;
    for (let i = 1; i < fixes.length; i++) {
      const a = fixes[i - 1]!;
      const b = fixes[i]!;
      const metres = distanceMetres([a.lon, a.lat], [b.lon, b.lat]);
      expect(metres, `leg ${i}`).toBeLessThanOrEqual((Math.max(a.speedKph, b.speedKph) / 3.6) * 5 + 1);
      path += metres;
      bySpeed += ((a.speedKph + b.speedKph) / 2 / 3.6) * 5;
    }
    // the speeds are the ground speeds, not the quarter of them the truck drives at in simulated time
    // (legs are chords, and the side road inside a bend is shorter than the corridor)
    expect(path / bySpeed).toBeGreaterThan(0.9);
  });
});

describe('a truck that must drive to show its incident', () => {
  // a weighbridge 100 m ahead (the truck waits there from its second fix) and a parking place 20 km on, each a 15-minute wait
  const stops: PlannedStop[] = [
    { placeId: 'ke-wb-test', along: 150_100, dwellSeconds: 900 },
    { placeId: 'ke-pk-test', along: 170_000, dwellSeconds: 900 },
  ];
  const standing = (fixes: Fix[], fromS: number, toS: number) =>
    fixes.filter(
      (f) =>
        f.speedKph === 0 &&
        f.time.getTime() - fixes[0]!.time.getTime() >= fromS * 1000 &&
        f.time.getTime() - fixes[0]!.time.getTime() < toS * 1000,
    );

  it('leaves the stop it waits at when its round is due and makes no other while it lasts: speeding, it never reads 0 km/h (its overspeed would clear)', () => {
    const fixes = drive({ kind: 'speed', startAfterS: 60, durationS: 30 * 60 }, 50 * 60, 5, 1, stops);
    expect(standing(fixes, 0, 55).length, 'waiting at the weighbridge before the round').toBeGreaterThan(0);
    expect(standing(fixes, 65, 60 + 30 * 60)).toEqual([]);
    expect(fixes.filter((f) => f.speedKph > 80 + 30).length).toBeGreaterThan(300);
  });

  it('drives off its corridor from the weighbridge it waited at, and is 6 km off it within ten minutes', () => {
    const fixes = drive({ kind: 'offCorridor', startAfterS: 60, durationS: 30 * 60, offsetM: 6_000 }, 20 * 60, 5, 1, stops);
    expect(standing(fixes, 65, 20 * 60)).toEqual([]);
    expect(offset(fixes.at(-1)!)).toBeCloseTo(6_000, -2);
  });

  it('makes its planned stops again once the round is over, and a truck without an incident makes them all', () => {
    const after = drive({ kind: 'speed', startAfterS: 60, durationS: 60 }, 30 * 60, 5, 1, [
      ...stops,
      { placeId: 'ke-wb-later', along: 190_000, dwellSeconds: 300 },
    ]);
    expect(standing(after, 3 * 60, 30 * 60).length).toBeGreaterThan(0);
    const plain = drive({ kind: 'silent', startAfterS: 10 * 3600, durationS: 60 }, 20 * 60, 5, 1, stops);
    expect(standing(plain, 0, 14 * 60).length).toBeGreaterThan(100); // the weighbridge's 15 minutes
  });
});
