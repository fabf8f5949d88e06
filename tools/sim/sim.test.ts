import { bearingDegrees, distanceMetres, measureLine, NORTHERN_CORRIDOR, pointAlong, projectOnLine } from '@corridor/geodata';
import { describe, expect, it } from 'vitest';
import { osmandUrl } from './osmand-client';
import { seededRandom } from './random';
import { kphToKnots, NO_NOISE, Truck, type Fix, type Sender, type TruckPlan } from './truck';

const corridor = NORTHERN_CORRIDOR;
const measured = measureLine(corridor.line);
const acceptAll: Sender = { protocol: 'test', send: async () => true };

function truck(overrides: Partial<TruckPlan> = {}, noise = NO_NOISE): Truck {
  const plan: TruckPlan = {
    deviceId: '356000000000001',
    corridor,
    direction: 'forward',
    startAlong: 200_000, // open road between Samburu and Voi
    cruiseKph: 72,
    stops: [],
    terminalDwellSeconds: 600,
    ...overrides,
  };
  return new Truck(plan, { sender: acceptAll, random: seededRandom(7), noise });
}

/** Along-distance of the middle of the first open-road (80 km/h) segment longer than 5 km after `from` metres. */
function openRoadAlong(from: number): number {
  for (let i = 0; i < corridor.speedLimitsKph.length; i++) {
    const start = measured.cumulative[i]!;
    const end = measured.cumulative[i + 1]!;
    if (start >= from && corridor.speedLimitsKph[i] === 80 && end - start > 5000) return (start + end) / 2;
  }
  throw new Error('no open road');
}

describe('truck motion', () => {
  it('advances along the line by speed × time and stays on the line', () => {
    const start = openRoadAlong(150_000);
    const t = truck({ startAlong: start });
    const before = t.state();
    const after = t.advance(60);
    expect(after.along - before.along).toBeCloseTo((72 / 3.6) * 60, 3);
    expect(after.speedKph).toBe(72);
    expect(projectOnLine(measured, after.coord).offset).toBeLessThan(1);
    expect(distanceMetres(before.coord, after.coord)).toBeGreaterThan(1000);
  });

  it('reports a course matching the bearing of the segment it drives', () => {
    const t = truck({ startAlong: openRoadAlong(300_000) });
    const s = t.advance(30);
    const seg = pointAlong(measured, s.along);
    const a = corridor.line[seg.segment]!;
    const b = corridor.line[seg.segment + 1]!;
    expect(s.courseDeg).toBeCloseTo(bearingDegrees(a, b), 6);
    const noisy = truck({ startAlong: openRoadAlong(300_000) }, { positionM: 5, courseDeg: 2, speedKph: 1.5 });
    noisy.advance(30);
    const diff = Math.abs(((noisy.fix(new Date()).courseDeg - s.courseDeg + 540) % 360) - 180);
    expect(diff).toBeLessThan(10);
  });

  it('drives backwards on a reverse plan, heading the opposite way', () => {
    const start = openRoadAlong(400_000);
    const t = truck({ startAlong: start, direction: 'reverse' });
    const s = t.advance(60);
    expect(s.along).toBeLessThan(start);
    const seg = pointAlong(measured, s.along);
    const forward = bearingDegrees(corridor.line[seg.segment]!, corridor.line[seg.segment + 1]!);
    expect(Math.abs(((s.courseDeg - forward + 540) % 360) - 180)).toBeCloseTo(180, 3);
  });

  it('keeps to 50 km/h inside towns even when it would cruise faster', () => {
    const nairobi = corridor.waypoints.find((w) => w.name === 'Nairobi')!;
    const t = truck({ startAlong: nairobi.km * 1000, cruiseKph: 78 });
    expect(t.advance(10).speedKph).toBe(50);
  });

  it('dwells at a planned stop, reporting zero speed, then drives on', () => {
    const start = openRoadAlong(150_000);
    const t = truck({ startAlong: start, cruiseKph: 60, stops: [{ placeId: 'wb', along: start + 1000, dwellSeconds: 300 }] });
    const arrived = t.advance(120); // 1 km at 60 km/h takes 60 s
    expect(arrived.stoppedAt).toBe('wb');
    expect(arrived.speedKph).toBe(0);
    expect(arrived.along).toBeCloseTo(start + 1000, 6);
    expect(t.fix(new Date()).speedKph).toBe(0);
    expect(t.advance(200).stoppedAt).toBe('wb');
    const gone = t.advance(100); // the dwell ended at 60 s + 300 s, so 60 s of driving since
    expect(gone.stoppedAt).toBeUndefined();
    expect(gone.along).toBeCloseTo(start + 1000 + (60 / 3.6) * 60, 3);
  });

  it('turns round at the end of the corridor after resting', () => {
    const end = measured.lengthMetres;
    const t = truck({ startAlong: end - 500, terminalDwellSeconds: 600 });
    const atEnd = t.advance(120);
    expect(atEnd.stoppedAt).toBe('terminal');
    expect(atEnd.along).toBeCloseTo(end, 6);
    const back = t.advance(700);
    expect(back.direction).toBe('reverse');
    expect(back.along).toBeLessThan(end);
  });

  it('adds GPS noise of a few metres only', () => {
    const t = truck({ startAlong: openRoadAlong(150_000) }, { positionM: 4, courseDeg: 2, speedKph: 1.5 });
    const truth = t.state().coord;
    for (let i = 0; i < 50; i++) {
      const f = t.fix(new Date());
      expect(distanceMetres(truth, [f.lon, f.lat])).toBeLessThan(40);
      expect(Math.abs(f.speedKph - 72)).toBeLessThan(10);
    }
  });
});

describe('speed units', () => {
  it('converts km/h to knots (1 kn = 1.852 km/h)', () => {
    expect(kphToKnots(1.852)).toBeCloseTo(1, 12);
    expect(kphToKnots(80)).toBeCloseTo(43.196544, 5);
    expect(kphToKnots(0)).toBe(0);
  });

  it('puts knots, epoch seconds and the other OsmAnd fields in the request URL', () => {
    const fix: Fix = {
      deviceId: '356000000000007',
      time: new Date('2025-03-01T10:00:00.900Z'),
      lat: -3.3961234,
      lon: 38.5630987,
      speedKph: 74.08,
      courseDeg: 312.34,
      altitudeM: 12,
      accuracyM: 8,
      batteryPct: 91.6,
    };
    const url = new URL(osmandUrl('http://127.0.0.1:5055', fix));
    expect(url.pathname).toBe('/');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      id: '356000000000007',
      lat: '-3.396123',
      lon: '38.563099',
      timestamp: String(Date.parse('2025-03-01T10:00:00Z') / 1000),
      speed: '40.00',
      bearing: '312.3',
      altitude: '12.0',
      accuracy: '8.0',
      batt: '92',
    });
  });
});
