import {
  corridorById,
  measureLine,
  offsetMetres,
  placeById,
  pointAlong,
  projectOnLine,
  type CorridorId,
  type LonLat,
  type MeasuredLine,
} from '@corridor/geodata';
import { parseAreaWkt } from '../fences/area-wkt';
import type { CatalogFence } from '../evaluator/fence-catalog';
import { seedFenceValues } from '../seed/seed-fences';
import type { TrackFix } from './tracker';

/**
 * Tracks with known answers for the observatory's tests: a truck driven along a corridor's line
 * at a set speed, waiting at set places for set times, leaving the line where told. Times are
 * exact (every fix is placed by construction), so the expected transit and dwell figures are
 * those of the construction itself.
 */

/** The seeded geofences (the geofence service's own seed, from @corridor/geodata), as the evaluator's catalog holds them; ids 1, 2, … */
export function seededFences(): CatalogFence[] {
  return seedFenceValues().map((row, i) => {
    const parsed = parseAreaWkt(row.area, row.attributes);
    if (!parsed.ok) throw new Error(`seed ${row.seedKey} does not parse`);
    return {
      id: String(i + 1),
      name: row.name,
      kind: row.kind!,
      country: row.country ?? null,
      shape: parsed.shape,
      rule: {
        minDwellSeconds: Number(row.attributes?.minDwellSeconds ?? 0),
        exitMarginMeters: Number(row.attributes?.exitMarginMeters ?? 0),
      },
      calendarId: null,
      deviceIds: new Set(),
      groupIds: new Set(),
      companyId: null,
    };
  });
}

/** The seeded fence of a geodata place (its catalog id). */
export function fenceIdOf(placeId: string): string {
  const i = seedFenceValues().findIndex((r) => r.seedKey === placeId);
  if (i < 0) throw new Error(`no seeded fence for ${placeId}`);
  return String(i + 1);
}

const MINUTE = 60_000;

export class TrackBuilder {
  readonly fixes: TrackFix[] = [];
  private readonly line: MeasuredLine;
  /** metres along the line where the truck is */
  along: number;
  /** metres to the side of the line (positive: right of the forward direction) */
  side = 0;
  t: number;

  constructor(
    readonly corridor: CorridorId,
    start: { at: string | number; time: number },
  ) {
    this.line = measureLine(corridorById(corridor).line);
    this.along = typeof start.at === 'number' ? start.at : this.alongOf(start.at);
    this.t = start.time;
  }

  /** Metres along the line of a geodata place's centre. */
  alongOf(placeId: string): number {
    const p = placeById(placeId);
    if (!p) throw new Error(`unknown place ${placeId}`);
    return projectOnLine(this.line, p.center).along;
  }

  get length(): number {
    return this.line.lengthMetres;
  }

  /** Where the truck is now. */
  where(): LonLat {
    const p = pointAlong(this.line, this.along);
    // past either end the truck goes on in the line's direction there (into Uganda beyond Malaba)
    const beyond = this.along > this.length ? this.along - this.length : this.along < 0 ? this.along : 0;
    const base = beyond ? offsetMetres(p.coord, Math.abs(beyond), beyond > 0 ? p.bearing : (p.bearing + 180) % 360) : p.coord;
    return this.side ? offsetMetres(base, Math.abs(this.side), (p.bearing + (this.side > 0 ? 90 : 270)) % 360) : base;
  }

  private emit(speedKmh: number): void {
    const [lon, lat] = this.where();
    this.fixes.push({ t: this.t, lon, lat, speedKmh });
  }

  /** A fix where the truck stands now, at the current time. */
  fix(speedKmh = 0): this {
    this.emit(speedKmh);
    return this;
  }

  /**
   * Drives to `to` (metres along, or a place's centre) at `kmh`, a fix every `everyMs`; the last
   * fix lands exactly on `to` (a shorter last step). The first fix is one step after the current one.
   */
  drive(to: number | string, kmh: number, everyMs = MINUTE): this {
    const target = typeof to === 'number' ? to : this.alongOf(to);
    const step = (kmh / 3.6) * (everyMs / 1000);
    const dir = Math.sign(target - this.along);
    while (Math.abs(target - this.along) > 1e-6) {
      const left = Math.abs(target - this.along);
      const d = Math.min(step, left);
      this.along += dir * d;
      this.t += Math.round((d / step) * everyMs);
      this.emit(kmh);
    }
    return this;
  }

  /** Stands still for `ms`, a fix every `everyMs` (the last one exactly at the end). */
  wait(ms: number, everyMs = MINUTE): this {
    const end = this.t + ms;
    while (this.t < end) {
      this.t = Math.min(end, this.t + everyMs);
      this.emit(0);
    }
    return this;
  }

  /** Moves sideways off the line to `side` metres (a side road), one fix after `ms`. */
  swerve(side: number, ms: number, kmh = 40): this {
    this.side = side;
    this.t += ms;
    this.emit(kmh);
    return this;
  }

  /** Jumps the clock without a fix (the tracker was silent). */
  silence(ms: number): this {
    this.t += ms;
    return this;
  }
}

const HOUR = 60 * MINUTE;

/**
 * Forward: from 10 km before Webuye weighbridge, 20 min there, on to Malaba OSBP, 3 h 10 min there,
 * then 1.5 km into Uganda. `swerve`: 15 km past Webuye the truck takes a side road 5 km off the line
 * for 20 minutes (it leaves the corridor). The times are the construction's: the visit at Malaba
 * lasts from `atMalaba` to `leftMalaba`, the leg from `leftWebuye` to `atMalaba`.
 */
export function webuyeToMalaba(start: number, opts: { swerve?: boolean } = {}) {
  const b = new TrackBuilder('northern', { at: 0, time: start });
  b.along = b.alongOf('ke-wb-webuye') - 10_000;
  b.fix(60).drive('ke-wb-webuye', 60);
  const atWebuye = b.t;
  b.wait(20 * MINUTE);
  const leftWebuye = b.t + MINUTE; // the first fix of the drive is 1 km on: beyond the 300 m circle and its 50 m margin
  if (opts.swerve) {
    b.drive(b.alongOf('ke-wb-webuye') + 15_000, 60);
    b.swerve(5_000, 5 * MINUTE)
      .wait(20 * MINUTE)
      .swerve(0, 5 * MINUTE);
  }
  b.drive('ke-malaba', 60);
  const atMalaba = b.t;
  b.wait(3 * HOUR + 9 * MINUTE);
  b.drive(b.length + 1_500, 90); // one fix a minute later, 1.5 km into Uganda: beyond the 800 m circle and its 100 m margin
  const leftMalaba = b.t;
  return { b, atWebuye, leftWebuye, atMalaba, leftMalaba };
}

/**
 * Reverse: from 3 km into Uganda through Malaba OSBP (an hour there) to Webuye weighbridge (10 min),
 * then 5 km on toward Nairobi. The fix 600 m before the post (36 s at 60 km/h) is the first inside
 * its 800 m circle, so the visit begins 36 s before `atMalaba`.
 */
export function ugandaToWebuye(start: number) {
  const b = new TrackBuilder('northern', { at: 0, time: start });
  b.along = b.length + 3_000; // 3 km into Uganda: off the corridor
  b.fix(60)
    .drive(b.length + 2_600, 24)
    .drive('ke-malaba', 60);
  const atMalaba = b.t;
  b.wait(HOUR);
  const leftMalaba = b.t + MINUTE;
  b.drive('ke-wb-webuye', 60);
  const atWebuye = b.t;
  b.wait(10 * MINUTE).drive(b.alongOf('ke-wb-webuye') - 5_000, 60);
  return { b, atMalaba, leftMalaba, atWebuye };
}
