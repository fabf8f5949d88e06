import type { CorridorId } from '@corridor/geodata';
import { haversineMeters } from '../fences/geometry';
import { step, type FenceMembership, type FenceRule } from '../evaluator/fence-state';
import type { Direction, LegExclusion, ObservatoryFact } from './facts';
import type { ObservatoryMap, ObservatoryPlace } from './observatory-map';

/**
 * The observatory's tracker: one truck's fixes in, in time order, and out the facts the corridor
 * indicators are made of (facts.ts): visits of the measured places, legs between consecutive places
 * of a corridor and from one end of it to the other, stops, and distance per day. A pure function
 * over a small JSON state, like the geofence hysteresis (fence-state.ts, which it uses for the
 * visits, so a visit here is the visit the geofence events report).
 *
 * - A leg runs from leaving a place (its exit) to reaching the next place of the same corridor (its
 *   enter time, the first fix inside). Places the truck passes without a visit (faster than the
 *   place's minimum dwell, or between two fixes) are passed all the same: a drive-through counts
 *   from its first fix inside to its first fix beyond the exit margin, a place between two fixes at
 *   the time interpolated along the line.
 * - A leg is counted apart when the truck left the corridor (beyond `widthM + offMarginM` from the
 *   line for `offMinMs` or more) or stopped, or was silent, for more than `longStopMs` on the way.
 *   A corridor leg (end to end) counts the same way over the whole trip, stays at the places on the
 *   way included.
 * - A stop is `minStopMs` or more below `stopSpeedKmh` within `stopRadiusM` of where it began.
 * - Distance is the sum of the straight lines between consecutive fixes, except jumps faster than
 *   `maxSpeedKmh` (a bad fix); it is put on the corridor and direction of the later fix.
 */
export interface TrackerSettings {
  /** half-width of the corridor around its line, metres (the seeded routes' width) */
  widthM: number;
  /** beyond the width by more than this, a fix is off the corridor */
  offMarginM: number;
  offMinMs: number;
  stopSpeedKmh: number;
  stopRadiusM: number;
  minStopMs: number;
  longStopMs: number;
  maxSpeedKmh: number;
  /** the heading changes after this much movement along the line */
  headingStepM: number;
  /** a day's running distance is written at least this often (fix time) */
  distanceFlushMs: number;
}

const MINUTE = 60_000;
export const DEFAULT_TRACKER_SETTINGS: TrackerSettings = Object.freeze({
  widthM: 2_000,
  offMarginM: 500,
  offMinMs: 5 * MINUTE,
  stopSpeedKmh: 5,
  stopRadiusM: 200,
  minStopMs: 5 * MINUTE,
  longStopMs: 24 * 60 * MINUTE,
  maxSpeedKmh: 200,
  headingStepM: 500,
  distanceFlushMs: 15 * MINUTE,
});

export interface TrackFix {
  /** fix time, epoch ms */
  t: number;
  lon: number;
  lat: number;
  speedKmh: number;
}

const OFF = 1;
const LONG = 2;

interface AlongPoint {
  c: CorridorId;
  /** the match's alongExt */
  x: number;
}

/** JSON-serialisable; times are epoch milliseconds. */
export interface TrackerState {
  v: 1;
  t: number;
  lon: number;
  lat: number;
  /** where the last fix was on its corridor, when it was on one */
  on: AlongPoint | null;
  /** visits in progress (fence-state memberships by place id) and the way each came in */
  fences: Record<string, FenceMembership>;
  arr: Record<string, Direction>;
  /** the last fix on a corridor outside every place ('off': the truck has been off the corridors since) */
  prior: AlongPoint | 'off' | null;
  heading: Direction;
  /** where the heading was last measured from */
  ha: AlongPoint | null;
  /** the last place reached or left: a leg runs from its departure (`dep`) to the next place */
  pass: { c: CorridorId; p: string; dep: number | null; flags: number } | null;
  /** a trip from one end of a corridor (left at `dep`) toward the other */
  trip: { c: CorridorId; p: string; dir: 1 | -1; dep: number; flags: number } | null;
  /** since when the truck has been off the corridor */
  off: number | null;
  stop: { s: number; lon: number; lat: number; area: string; c: CorridorId | null; d: Direction; long: boolean } | null;
  /** the current UTC day's distance by `${corridor}|${direction}` */
  dist: { day: string; m: Record<string, number>; at: number; flushed: number } | null;
}

export interface TrackResult {
  state: TrackerState;
  facts: ObservatoryFact[];
  /** legs not made because the next place reached was not the adjacent one (the places changed, or a detection was missed) */
  skipped: number;
}

const sign = (v: number): Direction => (v > 0 ? 1 : v < 0 ? -1 : 0);
const utcDay = (t: number): string => new Date(t).toISOString().slice(0, 10);
const exclusion = (flags: number): LegExclusion => (flags & OFF ? 'left_corridor' : flags & LONG ? 'long_stop' : '');

/** The way a truck comes into a place: from where it last was on the corridor, or into the corridor at its ends. */
function arrivalDirection(p: ObservatoryPlace, prior: TrackerState['prior']): Direction {
  if (p.corridor === null || p.along === null) return 0;
  if (prior && prior !== 'off' && prior.c === p.corridor && Math.abs(p.along - prior.x) >= 50) return sign(p.along - prior.x);
  if (prior === 'off' && p.end) return p.end === 'start' ? 1 : -1;
  return 0;
}

/**
 * What one fix does to a truck's passes and trips (track's steps), as methods rather than closures
 * made per fix: under tsx (`pnpm start`) every named closure costs an Object.defineProperty of its
 * name each time it is made (esbuild's keepNames), 3.4 % of the embedded stack's main thread at
 * saturation for track's four (issue 28).
 */
class Step {
  skipped = 0;
  constructor(
    private readonly s: TrackerState,
    private readonly deviceId: number,
    private readonly map: ObservatoryMap,
    private readonly facts: ObservatoryFact[],
  ) {}

  flag(f: number): void {
    const s = this.s;
    if (s.pass && s.pass.dep !== null) s.pass.flags |= f;
    if (s.trip) s.trip.flags |= f;
  }

  arrive(p: ObservatoryPlace, at: number): void {
    const { s, map, facts, deviceId } = this;
    if (p.corridor === null || p.along === null) {
      s.pass = null; // a place off the corridors: no leg runs through it
      return;
    }
    const c = p.corridor;
    const from = s.pass && s.pass.c === c && s.pass.p !== p.id && s.pass.dep !== null ? map.byId.get(s.pass.p) : undefined;
    if (from && from.along !== null && s.pass?.dep != null && s.pass.dep <= at) {
      if (map.placesBetween(c, from.along, p.along).length) this.skipped++;
      else {
        facts.push({
          kind: 'leg',
          deviceId,
          corridor: c,
          legKind: 'segment',
          direction: p.along > from.along ? 1 : -1,
          from: { id: from.id, name: from.name, along: from.along },
          to: { id: p.id, name: p.name, along: p.along },
          departedAt: s.pass.dep,
          arrivedAt: at,
          excluded: exclusion(s.pass.flags),
        });
      }
    }
    if (s.trip && (s.trip.c !== c || s.trip.p === p.id))
      s.trip = null; // another corridor, or back where it started
    else if (s.trip && p.end === (s.trip.dir === 1 ? 'end' : 'start')) {
      const start = map.byId.get(s.trip.p);
      if (start && start.along !== null) {
        facts.push({
          kind: 'leg',
          deviceId,
          corridor: c,
          legKind: 'corridor',
          direction: s.trip.dir,
          from: { id: start.id, name: start.name, along: start.along },
          to: { id: p.id, name: p.name, along: p.along },
          departedAt: s.trip.dep,
          arrivedAt: at,
          excluded: exclusion(s.trip.flags),
        });
      }
      s.trip = null;
    }
    s.pass = { c, p: p.id, dep: null, flags: 0 };
  }

  depart(p: ObservatoryPlace, at: number, carry: number): void {
    const s = this.s;
    if (p.corridor === null) return;
    if (s.pass?.p === p.id) Object.assign(s.pass, { dep: at, flags: carry });
    else s.pass = { c: p.corridor, p: p.id, dep: at, flags: carry };
    if (p.end) s.trip = { c: p.corridor, p: p.id, dir: p.end === 'start' ? 1 : -1, dep: at, flags: carry };
  }
}

/** A stop beginning at this fix. */
const stopFrom = (fix: TrackFix, on: { corridor: CorridorId } | undefined, s: TrackerState, map: ObservatoryMap): TrackerState['stop'] => ({
  s: fix.t,
  lon: fix.lon,
  lat: fix.lat,
  area: map.authorizedAt(fix.lon, fix.lat),
  c: on?.corridor ?? null,
  d: on ? s.heading : 0,
  long: false,
});

/**
 * One fix through the tracker. `state` (undefined for a truck never seen) is updated in place and
 * returned; a fix not newer than the last one changes nothing (redelivery is harmless).
 */
export function track(
  state: TrackerState | undefined,
  deviceId: number,
  fix: TrackFix,
  map: ObservatoryMap,
  settings: TrackerSettings = DEFAULT_TRACKER_SETTINGS,
): TrackResult {
  if (!Number.isFinite(fix.t)) throw new RangeError('fix time is not a number');
  if (state && fix.t <= state.t) return { state, facts: [], skipped: 0 };
  const facts: ObservatoryFact[] = [];
  const s: TrackerState = state ?? {
    v: 1,
    t: fix.t,
    lon: fix.lon,
    lat: fix.lat,
    on: null,
    fences: {},
    arr: {},
    prior: null,
    heading: 0,
    ha: null,
    pass: null,
    trip: null,
    off: null,
    stop: null,
    dist: null,
  };
  const prev = state ? { t: state.t, lon: state.lon, lat: state.lat, on: state.on } : undefined;
  const match = map.match(fix.lon, fix.lat);
  const on = match && match.offset <= settings.widthM + settings.offMarginM ? match : undefined;

  const k = new Step(s, deviceId, map, facts);
  // a silence of more than a day counts as a long stop of whatever trip is under way
  const silent = prev !== undefined && fix.t - prev.t > settings.longStopMs;
  if (silent) k.flag(LONG);

  if (!on) {
    if (s.off === null) s.off = fix.t;
    else if (fix.t - s.off >= settings.offMinMs) k.flag(OFF);
    s.prior = 'off';
  } else s.off = null;

  // places passed between the previous fix and this one with no fix near them
  if (on && prev?.on && prev.on.c === on.corridor) {
    const dx = on.alongExt - prev.on.x;
    const dt = fix.t - prev.t;
    if (dx !== 0 && Math.abs(dx) <= (settings.maxSpeedKmh / 3.6) * (dt / 1000)) {
      const here = new Set(map.placesAt(fix.lon, fix.lat).map((p) => p.id));
      const passed = map.placesBetween(on.corridor, prev.on.x, on.alongExt).filter((p) => !(p.id in s.fences) && !here.has(p.id));
      passed.sort((a, b) => (dx > 0 ? a.along! - b.along! : b.along! - a.along!));
      for (const p of passed) {
        const at = Math.round(prev.t + ((p.along! - prev.on.x) / dx) * dt);
        k.arrive(p, at);
        k.depart(p, at, silent ? LONG : 0);
      }
    }
  }

  // visits, with the geofence rules
  const inside = map.placesAt(fix.lon, fix.lat);
  const insideIds = new Set(inside.map((p) => p.id));
  const rules = new Map<string, FenceRule>();
  for (const id of [...Object.keys(s.fences), ...insideIds]) {
    const p = map.byId.get(id);
    if (p) rules.set(id, p.rule);
  }
  for (const p of inside) if (!(p.id in s.fences)) s.arr[p.id] = arrivalDirection(p, s.prior);
  const r = step(
    state ? { v: 1, lastFixTime: state.t, fences: s.fences } : undefined,
    { time: new Date(fix.t), lon: fix.lon, lat: fix.lat },
    insideIds,
    rules,
    (id) => {
      const p = map.byId.get(id);
      return p ? map.distanceOutside(p, fix.lon, fix.lat) : Infinity;
    },
  );
  const entered = new Set(r.events.filter((e) => e.type === 'geofenceEnter').map((e) => e.fenceId));
  for (const e of r.events) {
    if (e.type !== 'geofenceExit') continue;
    const p = map.byId.get(e.fenceId);
    if (!p) continue;
    facts.push({
      kind: 'visit',
      deviceId,
      placeId: p.id,
      placeName: p.name,
      placeKind: p.kind,
      corridor: p.corridor,
      direction: s.arr[p.id] ?? 0,
      enteredAt: fix.t - Math.round((e.dwellSeconds ?? 0) * 1000),
      exitedAt: fix.t,
    });
    k.depart(p, fix.t, 0);
  }
  for (const [id, m] of Object.entries(s.fences)) {
    const p = map.byId.get(id);
    if (m.phase !== 'pending' || id in r.state.fences || entered.has(id) || !p) continue;
    k.arrive(p, m.since); // through without stopping long enough for a visit
    k.depart(p, fix.t, 0);
  }
  for (const e of r.events) {
    const p = e.type === 'geofenceEnter' ? map.byId.get(e.fenceId) : undefined;
    if (p) k.arrive(p, e.time.getTime());
  }
  s.fences = r.state.fences;
  for (const id of Object.keys(s.arr)) if (!(id in s.fences)) delete s.arr[id];

  if (on) {
    const here: AlongPoint = { c: on.corridor, x: on.alongExt };
    if (!Object.keys(s.fences).length) s.prior = here;
    if (!s.ha || s.ha.c !== on.corridor) {
      if (s.ha?.c !== on.corridor) s.heading = 0;
      s.ha = here;
    } else if (Math.abs(here.x - s.ha.x) >= settings.headingStepM) {
      s.heading = sign(here.x - s.ha.x);
      s.ha = here;
    }
  }

  // stops
  const slow = fix.speedKmh < settings.stopSpeedKmh;
  if (s.stop) {
    const moved = haversineMeters(s.stop.lon, s.stop.lat, fix.lon, fix.lat) > settings.stopRadiusM;
    if (!slow || moved) {
      const st = s.stop;
      if (fix.t - st.s >= settings.minStopMs) {
        facts.push({
          kind: 'stop',
          deviceId,
          corridor: st.c,
          direction: st.d,
          startedAt: st.s,
          endedAt: fix.t,
          lon: st.lon,
          lat: st.lat,
          area: st.area,
        });
      }
      s.stop = slow ? stopFrom(fix, on, s, map) : null;
    } else if (!s.stop.long && fix.t - s.stop.s > settings.longStopMs) {
      k.flag(LONG);
      s.stop.long = true;
    }
  } else if (slow) s.stop = stopFrom(fix, on, s, map);

  // distance of the day
  if (prev) {
    const metres = haversineMeters(prev.lon, prev.lat, fix.lon, fix.lat);
    if (metres <= (settings.maxSpeedKmh / 3.6) * ((fix.t - prev.t) / 1000)) {
      const day = utcDay(fix.t);
      if (s.dist && s.dist.day !== day) {
        facts.push(...distanceFacts(deviceId, s.dist, s.dist.at));
        s.dist = null;
      }
      const d = (s.dist ??= { day, m: {}, at: fix.t, flushed: fix.t });
      const key = on ? `${on.corridor}|${s.heading}` : '|0';
      d.m[key] = (d.m[key] ?? 0) + metres;
      d.at = fix.t;
      if (fix.t - d.flushed >= settings.distanceFlushMs) {
        facts.push(...distanceFacts(deviceId, d, fix.t));
        d.flushed = fix.t;
      }
    }
  }

  s.t = fix.t;
  s.lon = fix.lon;
  s.lat = fix.lat;
  s.on = on ? { c: on.corridor, x: on.alongExt } : null;
  return { state: s, facts, skipped: k.skipped };
}

function distanceFacts(deviceId: number, d: NonNullable<TrackerState['dist']>, version: number): ObservatoryFact[] {
  return Object.entries(d.m).map(([key, metres]) => {
    const [c = '', dir = '0'] = key.split('|');
    return {
      kind: 'distance',
      deviceId,
      day: d.day,
      corridor: (c || null) as CorridorId | null,
      direction: Number(dir) as Direction,
      metres,
      version,
    };
  });
}

/** The facts a truck's distance of the current day stands at (what a flush would write now). */
export function pendingDistance(state: TrackerState, deviceId: number): ObservatoryFact[] {
  return state.dist ? distanceFacts(deviceId, state.dist, state.dist.at) : [];
}

/** Many fixes of one truck, in order, through the tracker. */
export function trackAll(
  state: TrackerState | undefined,
  deviceId: number,
  fixes: readonly TrackFix[],
  map: ObservatoryMap,
  settings?: TrackerSettings,
): TrackResult {
  const facts: ObservatoryFact[] = [];
  let skipped = 0;
  let s = state;
  for (const f of fixes) {
    const r = track(s, deviceId, f, map, settings);
    s = r.state;
    facts.push(...r.facts);
    skipped += r.skipped;
  }
  if (!s) throw new RangeError('no fixes');
  return { state: s, facts, skipped };
}
