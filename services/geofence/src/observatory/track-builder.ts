import { corridorById, measureLine, offsetMetres, placeById, pointAlong, projectOnLine, type CorridorId, type LonLat, type MeasuredLine } from '@corridor/geodata';
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
      id: String(i + 1), name: row.name, kind: row.kind!, country: row.country ?? null, shape: parsed.shape,
      rule: { minDwellSeconds: Number(row.attributes?.minDwellSeconds ?? 0), exitMarginMeters: Number(row.attributes?.exitMarginMeters ?? 0) },
      calendarId: null, deviceIds: new Set(), groupIds: new Set(), companyId: null,
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

  constructor(readonly corridor: CorridorId, start: { at: string | number; time: number }) {
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
