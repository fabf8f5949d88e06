import { measureLine, offsetMetres, pointAlong, type Corridor, type LonLat, type MeasuredLine } from '@corridor/geodata';
import { gaussian, seededRandom, type Random } from './random';

const KPH_PER_KNOT = 1.852;
export const kphToKnots = (kph: number): number => kph / KPH_PER_KNOT;

/** One position report as a tracker would produce it; senders turn it into their protocol. */
export interface Fix {
  readonly deviceId: string;
  readonly time: Date;
  readonly lat: number;
  readonly lon: number;
  readonly speedKph: number;
  /** Degrees clockwise from true north, 0 ≤ course < 360. */
  readonly courseDeg: number;
  readonly altitudeM: number;
  /** Horizontal accuracy estimate, metres. */
  readonly accuracyM: number;
  readonly batteryPct: number;
}

/**
 * Delivers fixes to the platform in one device protocol: OsmAnd over HTTP (one sender for the
 * fleet) or a TCP protocol such as GT06 or Teltonika (one sender, i.e. one connection, per truck).
 * `send` resolves true when the fix was accepted, false when it was given up on; it never rejects.
 */
export interface Sender {
  readonly protocol: string;
  send(fix: Fix, signal?: AbortSignal): Promise<boolean>;
  /** Releases what the sender holds (a TCP sender's connection). */
  close?(): void;
}

/** A stop on the corridor, at `along` metres from the line's first vertex (forward direction). */
export interface PlannedStop {
  readonly placeId: string;
  readonly along: number;
  readonly dwellSeconds: number;
}

export type Direction = 'forward' | 'reverse';

export interface TruckPlan {
  readonly deviceId: string;
  readonly corridor: Corridor;
  readonly direction: Direction;
  /** Start position, metres from the line's first vertex. */
  readonly startAlong: number;
  /** Preferred speed on open road; the segment limit caps it. */
  readonly cruiseKph: number;
  /** Stops, made in whichever direction the truck passes them. */
  readonly stops: readonly PlannedStop[];
  /** Rest at either end of the corridor before turning round. */
  readonly terminalDwellSeconds: number;
}

export interface GpsNoise {
  /** Standard deviation of the position error, metres. */
  readonly positionM: number;
  readonly courseDeg: number;
  readonly speedKph: number;
}

const DEFAULT_NOISE: GpsNoise = { positionM: 4, courseDeg: 2, speedKph: 1.5 };
export const NO_NOISE: GpsNoise = { positionM: 0, courseDeg: 0, speedKph: 0 };

export interface TruckState {
  readonly coord: LonLat;
  /** Metres from the line's first vertex. */
  readonly along: number;
  readonly direction: Direction;
  readonly speedKph: number;
  readonly courseDeg: number;
  /** Place id (or 'terminal') while dwelling. */
  readonly stoppedAt: string | undefined;
}

export interface TruckOptions {
  readonly sender: Sender;
  readonly random?: Random;
  readonly noise?: GpsNoise;
  /**
   * The wait at a planned stop for a truck arriving at that time (seconds; waits.ts), used when
   * `advance` is told the time. Without it (or the time) a stop lasts its planned dwellSeconds.
   */
  readonly waits?: (placeId: string, at: Date, random: Random) => number;
}

const EPS = 1e-6;

/** A truck driving up and down a corridor polyline as simulated time advances. */
export class Truck {
  readonly deviceId: string;
  readonly sender: Sender;
  private readonly plan: TruckPlan;
  private readonly measured: MeasuredLine;
  private readonly random: Random;
  private readonly noise: GpsNoise;
  private readonly waits: TruckOptions['waits'];
  private readonly batteryPct: number;
  private along: number;
  private dir: 1 | -1;
  private dwellLeft = 0;
  private dwellAt: string | undefined;
  private lastCourse: number;
  /** Scripted behaviour (the demo's incidents): held in place, or driven at a set speed, or kept driving past its stops. */
  private held = false;
  private overLimitKph: number | null = null;
  private keepDriving = false;
  /** The share of the speed that carries the truck along its corridor (1; less while it drives off at an angle). */
  private alongFactor = 1;

  constructor(plan: TruckPlan, options: TruckOptions) {
    this.plan = plan;
    this.deviceId = plan.deviceId;
    this.sender = options.sender;
    this.random = options.random ?? seededRandom(1);
    this.noise = options.noise ?? DEFAULT_NOISE;
    this.waits = options.waits;
    this.measured = measureLine(plan.corridor.line);
    this.along = Math.min(Math.max(plan.startAlong, 0), this.measured.lengthMetres);
    this.dir = plan.direction === 'forward' ? 1 : -1;
    this.batteryPct = Math.round(85 + 15 * this.random());
    this.lastCourse = this.segmentCourse();
  }

  get lengthMetres(): number {
    return this.measured.lengthMetres;
  }

  /** Index of the segment the truck is on or about to drive, given its direction. */
  private segment(): number {
    const probe = Math.min(Math.max(this.along + this.dir * 0.5, 0), this.measured.lengthMetres);
    return pointAlong(this.measured, probe).segment;
  }

  private segmentCourse(): number {
    const p = pointAlong(this.measured, Math.min(Math.max(this.along + this.dir * 0.5, 0), this.measured.lengthMetres));
    return this.dir === 1 ? p.bearing : (p.bearing + 180) % 360;
  }

  private speedLimitKph(segment: number): number {
    return this.plan.corridor.speedLimitsKph[segment] ?? 80;
  }

  /** Current driving speed before noise: the cruise speed capped by the segment's limit (or the scripted speed over it). */
  private targetKph(): number {
    const seg = this.segment();
    if (this.overLimitKph === null) return Math.min(this.plan.cruiseKph, this.speedLimitKph(seg));
    // over the highest limit about it: a fix just past a change of limit is matched to either segment
    const around = [seg - 1, seg, seg + 1].filter((s) => s >= 0 && s < this.plan.corridor.speedLimitsKph.length);
    return Math.max(...around.map((s) => this.speedLimitKph(s))) + this.overLimitKph;
  }

  /** Holds the truck where it is (speed 0, no progress) until released. */
  setHeld(held: boolean): void {
    this.held = held;
  }

  /**
   * Keeps the truck on the road (a scripted incident that needs it driving): it leaves a planned
   * stop it waits at and passes the others until released. The ends of its corridor stay as they are.
   */
  setKeepDriving(on: boolean): void {
    this.keepDriving = on;
    if (on && this.dwellLeft > 0 && this.dwellAt !== 'terminal') this.leaveStop();
  }

  /**
   * Drives this many km/h over the limit wherever it is (null: back to the plan). Over the limit of
   * the moment it was told, the truck read under the next segment's higher limit for a fix, and its
   * overspeed flag cleared (issue 29).
   */
  setOverLimit(kph: number | null): void {
    this.overLimitKph = kph;
  }

  /**
   * The share of its speed that moves the truck along the corridor (1 = all of it): a truck turning
   * off at an angle θ makes cos θ of its speed along the line and the rest sideways (incidents.ts).
   */
  setAlongFactor(factor: number): void {
    this.alongFactor = Math.min(1, Math.max(0, factor));
  }

  /** The speed limit where the truck is, km/h. */
  currentLimitKph(): number {
    return this.speedLimitKph(this.segment());
  }

  /** The nearest event ahead: a planned stop, the end of the segment (limits change) or the terminal. */
  private nextEvent(): { at: number; stop?: { placeId: string; dwellSeconds: number } } {
    const seg = this.segment();
    const boundary = this.dir === 1 ? this.measured.cumulative[seg + 1] : this.measured.cumulative[seg];
    let at = boundary ?? (this.dir === 1 ? this.measured.lengthMetres : 0);
    let stop: { placeId: string; dwellSeconds: number } | undefined;
    for (const s of this.keepDriving ? [] : this.plan.stops) {
      const ahead = this.dir === 1 ? s.along > this.along + EPS : s.along < this.along - EPS;
      const sooner = this.dir === 1 ? s.along <= at : s.along >= at;
      if (ahead && sooner) {
        at = s.along;
        stop = s;
      }
    }
    return stop ? { at, stop } : { at };
  }

  /** Moves the truck on by `seconds` of simulated time; `until`: the time those seconds end at (for the waits). */
  advance(seconds: number, until?: Date): TruckState {
    if (this.held) return this.state();
    let left = seconds;
    while (left > EPS) {
      if (this.dwellLeft > 0) {
        const wait = Math.min(this.dwellLeft, left);
        this.dwellLeft -= wait;
        left -= wait;
        if (this.dwellLeft <= EPS) this.leaveStop();
        continue;
      }
      const mps = (this.targetKph() / 3.6) * this.alongFactor;
      if (mps <= EPS) break; // driving straight off the line: no progress along it
      const event = this.nextEvent();
      const distance = Math.abs(event.at - this.along);
      const needed = distance / mps;
      if (needed > left) {
        this.along += this.dir * mps * left;
        left = 0;
      } else {
        this.along = event.at;
        left -= needed;
        if (event.stop) {
          const arrived = until && new Date(until.getTime() - left * 1000);
          this.startDwell(
            event.stop.placeId,
            arrived && this.waits ? this.waits(event.stop.placeId, arrived, this.random) : event.stop.dwellSeconds,
          );
        } else if (this.atTerminal()) this.startDwell('terminal', this.plan.terminalDwellSeconds);
      }
      if (this.dwellLeft <= 0) this.lastCourse = this.segmentCourse();
    }
    return this.state();
  }

  private atTerminal(): boolean {
    return this.dir === 1 ? this.along >= this.measured.lengthMetres - EPS : this.along <= EPS;
  }

  private startDwell(at: string, seconds: number): void {
    this.dwellAt = at;
    this.dwellLeft = Math.max(seconds, EPS * 2);
  }

  private leaveStop(): void {
    this.dwellLeft = 0;
    if (this.dwellAt === 'terminal') this.dir = this.dir === 1 ? -1 : 1;
    this.dwellAt = undefined;
    this.lastCourse = this.segmentCourse();
  }

  /** The true (noise-free) state. */
  state(): TruckState {
    const p = pointAlong(this.measured, this.along);
    const dwelling = this.dwellLeft > 0;
    return {
      coord: p.coord,
      along: this.along,
      direction: this.dir === 1 ? 'forward' : 'reverse',
      speedKph: dwelling || this.held ? 0 : this.targetKph(),
      courseDeg: this.lastCourse,
      stoppedAt: dwelling ? this.dwellAt : undefined,
    };
  }

  /** A position report as the tracker would measure it: the true state plus GPS noise. */
  fix(time: Date): Fix {
    const s = this.state();
    const n = this.noise;
    const errorM = Math.abs(gaussian(this.random)) * n.positionM;
    const [lon, lat] = n.positionM > 0 ? offsetMetres(s.coord, errorM, 360 * this.random()) : s.coord;
    const moving = s.speedKph > 0;
    const speedKph = moving ? Math.max(0, s.speedKph + gaussian(this.random) * n.speedKph) : 0;
    const courseDeg = (((s.courseDeg + (moving ? gaussian(this.random) * n.courseDeg : 0)) % 360) + 360) % 360;
    return {
      deviceId: this.deviceId,
      time,
      lat,
      lon,
      speedKph,
      courseDeg,
      altitudeM: 0,
      accuracyM: Math.max(3, Math.round(n.positionM * 2)),
      batteryPct: this.batteryPct,
    };
  }

  /** Sends the current fix through this truck's sender. */
  report(time: Date, signal?: AbortSignal): Promise<boolean> {
    return this.sender.send(this.fix(time), signal);
  }
}
