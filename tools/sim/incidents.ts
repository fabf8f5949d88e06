import { distanceMetres, interpolate, offsetMetres, placesOnCorridor, type CorridorId, type LonLat } from '@corridor/geodata';
import type { Fix, Truck } from './truck';

/**
 * Scripted incidents for a simulated truck (the demo's deviations): it leaves its corridor
 * (drives to a parallel road `offsetM` to the side and along it), stops where no stop is approved,
 * goes silent, or speeds. Each starts `startAfterS` after the simulator starts (a stop waits until
 * the truck is clear of every place on its corridor), lasts `durationS`, and comes back every
 * `everyS` when given. From the moment a round is due until it ends, a truck that must drive to
 * show it (off its corridor, speeding, on its way to a stop) makes none of its planned stops: one
 * waiting 10 to 20 minutes at a border post or a parking place reads 0 km/h, and its overspeed
 * cleared, so the flagged board missed that kind for as long (the console's browser test, issue 29).
 */
type IncidentKind = 'offCorridor' | 'stop' | 'silent' | 'speed';

export interface IncidentPlan {
  readonly kind: IncidentKind;
  readonly startAfterS: number;
  readonly durationS: number;
  readonly everyS?: number;
  /** offCorridor: how far to the side, metres (default 5 km). */
  readonly offsetM?: number;
  /** speed: km/h above the segment's limit (default 35). */
  readonly overLimitKph?: number;
}

/** A stop closer than this to a place on the corridor could fall inside an approved stop area. */
const CLEAR_OF_PLACES_M = 5_000;

/**
 * The angle at which an off-corridor truck turns away from its line and back (degrees): it then
 * makes sin θ of its speed sideways and cos θ along the line, so its fixes move as fast as the speed
 * they report (a parallel road reached in a few minutes, not a jump).
 */
const TURN_OFF_DEG = 60;
const TURN = (TURN_OFF_DEG * Math.PI) / 180;

export class IncidentScript {
  private startedAt: number | null = null;
  private readonly t0: number;
  /** offCorridor: how far to the side the truck is now, metres, and when that was worked out (ms). */
  private side = 0;
  private sideAt: number | null = null;
  /** offCorridor: the last fix sent while off the line (or on the way back), and its time (ms). */
  private last: { lon: number; lat: number; at: number } | null = null;

  constructor(
    readonly plan: IncidentPlan,
    private readonly corridor: CorridorId,
    now: number,
    /** Simulated seconds per real second (the simulator's timeScale). */
    private readonly timeScale = 1,
  ) {
    this.t0 = now;
  }

  /** Whether the incident is under way at `now` (ms), starting it when due; `due` also while it waits to start. */
  private active(now: number, truck: Truck): { on: boolean; due: boolean } {
    const { startAfterS, durationS, everyS } = this.plan;
    if (this.startedAt !== null) {
      const into = (now - this.startedAt) / 1000;
      if (into < durationS) return { on: true, due: true };
      if (!everyS || into < everyS) return { on: false, due: false };
      this.startedAt = null; // the next round
    }
    if ((now - this.t0) / 1000 < startAfterS) return { on: false, due: false };
    if (this.plan.kind === 'stop' && !this.clearOfPlaces(truck)) return { on: false, due: true };
    this.startedAt = now;
    return { on: true, due: true };
  }

  private clearOfPlaces(truck: Truck): boolean {
    const s = truck.state();
    return !s.stoppedAt && placesOnCorridor(this.corridor).every((p) => distanceMetres(p.center, s.coord) > CLEAR_OF_PLACES_M);
  }

  /**
   * Sets the truck's scripted mode for this tick; returns whether it reports and how its fix is
   * changed (the off-corridor road runs parallel to the corridor, and the truck drives there and
   * back at an angle, at its own speed).
   */
  step(truck: Truck, now: number): { send: boolean; fix: (f: Fix) => Fix } {
    const { on, due } = this.active(now, truck);
    const kind = this.plan.kind;
    truck.setKeepDriving(due && kind !== 'silent');
    truck.setHeld(on && kind === 'stop');
    truck.setOverLimit(on && kind === 'speed' ? (this.plan.overLimitKph ?? 35) : null);
    if (on && kind === 'silent') return { send: false, fix: (f) => f };
    if (kind === 'offCorridor') return this.offCorridor(truck, now, on);
    return { send: true, fix: (f) => f };
  }

  /**
   * The side offset moves towards the parallel road while the incident is on (back to the line
   * after it) at sin θ of the truck's speed since the previous step, the truck making cos θ of it
   * along the line meanwhile; the fix's course turns by θ while it does.
   */
  private offCorridor(truck: Truck, now: number, on: boolean): { send: boolean; fix: (f: Fix) => Fix } {
    const target = on ? (this.plan.offsetM ?? 5_000) : 0;
    const seconds = this.sideAt === null ? 0 : (Math.max(0, now - this.sideAt) / 1000) * this.timeScale;
    this.sideAt = now;
    const sideways = (truck.state().speedKph / 3.6) * Math.sin(TURN) * seconds;
    const before = this.side;
    this.side = target > before ? Math.min(target, before + sideways) : Math.max(target, before - sideways);
    // the share of the interval spent turning makes cos θ of the speed along the line, the rest all of it
    const turned = sideways > 0 ? Math.abs(this.side - before) / sideways : 0;
    truck.setAlongFactor(1 - turned * (1 - Math.cos(TURN)));
    const turning = this.side !== target;
    const side = this.side;
    const turn = turning ? (target > side ? TURN_OFF_DEG : -TURN_OFF_DEG) : 0;
    if (side === 0 && !turning && this.last === null) return { send: true, fix: (f) => f };
    return {
      send: true,
      fix: (f) => {
        const [lon, lat] = offsetMetres([f.lon, f.lat], side, (f.courseDeg + 90) % 360);
        return { ...f, ...this.reachable(f, lon, lat), courseDeg: (((f.courseDeg + turn) % 360) + 360) % 360 };
      },
    };
  }

  /**
   * Where the truck gets towards a point to the side of the line: all the way, unless that is
   * farther from its last fix than its speed covers since (the outer side of a bend in the line is
   * longer than the line), then as far as it does; it catches up where the line bends the other way.
   * Back on the line, the fixes are the truck's own again.
   */
  private reachable(f: Fix, lon: number, lat: number): { lon: number; lat: number } {
    const at = f.time.getTime();
    let to: LonLat = [lon, lat];
    if (this.last) {
      const from: LonLat = [this.last.lon, this.last.lat];
      const gap = distanceMetres(from, to);
      const reach = (f.speedKph / 3.6) * Math.max(0, (at - this.last.at) / 1000);
      if (gap > reach) to = interpolate(from, to, reach / gap);
    }
    const home = this.side === 0 && distanceMetres(to, [lon, lat]) < 1;
    this.last = home ? null : { lon: to[0], lat: to[1], at };
    return { lon: to[0], lat: to[1] };
  }
}
