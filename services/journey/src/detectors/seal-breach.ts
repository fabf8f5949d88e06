import type { RouteIndex } from '../corridor/route-index';
import type { StopArea, StopAreaKind } from '../corridor/route-definition';
import { flagChange, type FlagDetails, type JourneyFix, type StepResult } from './flag-change';

/**
 * Seal breach: an electronic seal on the journey's device opened (`unlock` alarm, or its lock state
 * going from locked to unlocked) or tampered with (`tampering` alarm of a seal: rope cut, wrong
 * password, unauthorised card, back cover opened) outside every permitted place of the journey:
 * its origin, its destination (the journey's own areas when it has them), and the border posts and
 * depots (`border`, `yard` stop areas) its route allows. The flag opens at the event, with the
 * place (the stop area it happened in, or "no permitted place") and the nearest named place. It is
 * not cleared by the detector: a breach stays open until a person resolves it. One flag per
 * episode: further openings and tamperings raise nothing until the seal is seen locked again after
 * having been unlocked (a relock), so the alarm a seal repeats in every report counts once.
 *
 * Events reported without a fix (valid=false) are placed at the journey's last valid fix since its
 * device first reported a seal, when there is one. Lock states are compared in fix-time order; explicit alarms count whenever they
 * arrive (a re-uploaded alarm is still a breach), and the flag's (journey, type, time) key makes a
 * redelivered one change nothing.
 */
export interface SealBreachState {
  /** last lock state reported (true = locked) and the fix time it was reported at */
  locked: boolean | null;
  lockedAt: number | null;
  /** a breach was flagged since the seal was last seen locked */
  breach: boolean;
  /** last valid fix, [longitude, latitude, fix time] */
  lastFix: [number, number, number] | null;
}

export const PERMITTED_KINDS: ReadonlySet<StopAreaKind> = new Set<StopAreaKind>(['origin', 'destination', 'border', 'yard']);
export const NO_PERMITTED_PLACE = 'no permitted place';

/** The state before any fix; step returns this very object while a journey has seen nothing. */
export const SEAL_INITIAL: SealBreachState = Object.freeze({ locked: null, lockedAt: null, breach: false, lastFix: null });

const nameOf = (a: StopArea): string => a.name ?? a.kind;

/** The nearest named stop area, with the distance from the point to its edge (0 inside), metres. */
function nearest(route: RouteIndex, point: [number, number]): { area: StopArea; distanceM: number } | null {
  let best: { area: StopArea; distanceM: number } | null = null;
  for (const area of route.stopAreas) {
    const distanceM = Math.max(0, route.ruler.distance(point, area.center) - area.radiusM);
    if (!best || distanceM < best.distanceM) best = { area, distanceM };
  }
  return best;
}

/** Where an event happened and whether that place permits opening the seal. */
export function sealPlace(route: RouteIndex, point: [number, number]): { permitted: StopArea | null; details: FlagDetails } {
  const inside = route.stopAreas.filter((a) => route.inArea(point[0], point[1], a));
  const permitted = inside.find((a) => PERMITTED_KINDS.has(a.kind)) ?? null;
  const near = nearest(route, point);
  const other = inside.find((a) => !PERMITTED_KINDS.has(a.kind));
  return {
    permitted,
    details: {
      place: permitted ? nameOf(permitted) : other ? nameOf(other) : NO_PERMITTED_PLACE,
      placeKind: (permitted ?? other)?.kind ?? null,
      nearestPlace: near ? nameOf(near.area) : null,
      nearestPlaceKind: near?.area.kind ?? null,
      nearestPlaceDistanceM: near ? Math.round(near.distanceM) : null,
    },
  };
}

export function step(state: SealBreachState | undefined, fix: JourneyFix, route: RouteIndex): StepResult<SealBreachState> {
  const s = state ?? SEAL_INITIAL;
  // a journey whose device never reported a seal keeps no seal state (no cost on the hot path)
  if (!fix.seal && s === SEAL_INITIAL) return { state: s, flags: [] };
  let next = s;
  if (fix.valid !== false && (s.lastFix === null || fix.time > s.lastFix[2]))
    next = { ...next, lastFix: [fix.longitude, fix.latitude, fix.time] };
  const seal = fix.seal;
  if (!seal) return { state: next, flags: [] };

  const inOrder = s.lockedAt === null || fix.time >= s.lockedAt;
  const unlockedNow = seal.locked === false && s.locked === true && inOrder;
  const relocked = seal.locked === true && s.locked === false && inOrder;
  if (seal.locked !== null && inOrder && (seal.locked !== s.locked || fix.time !== s.lockedAt))
    next = { ...next, locked: seal.locked, lockedAt: fix.time };
  if (relocked) next = { ...next, breach: false };

  const event = seal.tampered ? 'tampered' : seal.opened || unlockedNow ? 'opened' : null;
  if (event === null || s.breach) return { state: next, flags: [] };

  const usesLastFix = fix.valid === false && s.lastFix !== null;
  const point: [number, number] = usesLastFix ? [s.lastFix![0], s.lastFix![1]] : [fix.longitude, fix.latitude];
  const place = sealPlace(route, point);
  if (place.permitted) return { state: next, flags: [] };
  const match = route.match(point[0], point[1]);
  const details: FlagDetails = {
    event,
    sealEvent: seal.sealEvent,
    ...place.details,
    location: usesLastFix ? 'lastFix' : fix.valid === false ? 'reported' : 'fix',
    distanceM: Math.round(match.distanceM),
    alongM: Math.round(match.alongM),
  };
  return {
    state: { ...next, breach: true },
    flags: [flagChange('sealBreach', 'open', { time: fix.time, longitude: point[0], latitude: point[1] }, details)],
  };
}
