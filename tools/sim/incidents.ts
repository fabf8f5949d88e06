import { distanceMetres, offsetMetres, placesOnCorridor, type CorridorId } from '@corridor/geodata';
import type { Fix, Truck } from './truck';

/**
 * Scripted incidents for a simulated truck (the demo's deviations): it leaves its corridor
 * (reports from a parallel road `offsetM` to the side), stops where no stop is approved, goes
 * silent, or speeds. Each starts `startAfterS` after the simulator starts (a stop waits until the
 * truck is clear of every place on its corridor), lasts `durationS`, and comes back every
 * `everyS` when given.
 */
export type IncidentKind = 'offCorridor' | 'stop' | 'silent' | 'speed';

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

export class IncidentScript {
  private startedAt: number | null = null;
  private readonly t0: number;

  constructor(
    readonly plan: IncidentPlan,
    private readonly corridor: CorridorId,
    now: number,
  ) {
    this.t0 = now;
  }

  /** Whether the incident is under way at `now` (ms), starting it when due. */
  private active(now: number, truck: Truck): boolean {
    const { startAfterS, durationS, everyS } = this.plan;
    if (this.startedAt !== null) {
      const into = (now - this.startedAt) / 1000;
      if (into < durationS) return true;
      if (!everyS) return false;
      if (into < everyS) return false;
      this.startedAt = null; // the next round
    }
    if ((now - this.t0) / 1000 < startAfterS) return false;
    if (this.plan.kind === 'stop' && !this.clearOfPlaces(truck)) return false;
    this.startedAt = now;
    return true;
  }

  private clearOfPlaces(truck: Truck): boolean {
    const s = truck.state();
    return !s.stoppedAt && placesOnCorridor(this.corridor).every((p) => distanceMetres(p.center, s.coord) > CLEAR_OF_PLACES_M);
  }

  /**
   * Sets the truck's scripted mode for this tick; returns whether it reports and how its fix is
   * changed (the off-corridor road runs parallel to the corridor).
   */
  step(truck: Truck, now: number): { send: boolean; fix: (f: Fix) => Fix } {
    const on = this.active(now, truck);
    const kind = this.plan.kind;
    truck.setHeld(on && kind === 'stop');
    truck.setSpeedOverride(on && kind === 'speed' ? truck.currentLimitKph() + (this.plan.overLimitKph ?? 35) : null);
    if (on && kind === 'silent') return { send: false, fix: (f) => f };
    if (on && kind === 'offCorridor') {
      // the truck turns off onto a parallel road: the offset grows over the first 90 s
      const ramp = Math.min(1, (now - (this.startedAt ?? now)) / 90_000);
      const side = (this.plan.offsetM ?? 5_000) * ramp;
      return {
        send: true,
        fix: (f) => {
          const [lon, lat] = offsetMetres([f.lon, f.lat], side, (f.courseDeg + 90) % 360);
          return { ...f, lon, lat };
        },
      };
    }
    return { send: true, fix: (f) => f };
  }
}
