/**
 * Per-device geofence hysteresis as a pure function: one fix in, the new state and the
 * geofenceEnter / geofenceExit events out. No clocks, no IO; the caller stores the state (Redis,
 * one small JSON object per device) and feeds the ids whose exact containment test holds.
 *
 * Rules (Traccar's GeofenceEventHandler semantics, plus the dwell and margin users keep asking for:
 * Traccar issues #2189, #3609, #6019):
 *  - enter: counts once the device has stayed inside for minDwellSeconds (0 = at the first inside
 *    fix). The event time is the FIRST inside fix; it is emitted at the fix that completes the dwell.
 *    Leaving (beyond the exit margin, see below) before the dwell completes cancels it: a drive-by.
 *  - exit: counts only when the device is more than exitMarginMeters outside the fence (0 = as soon
 *    as the exact test fails). Fixes outside but within the margin keep the device inside, so jitter
 *    at the edge does not flap. dwellSeconds = exit time − enter time.
 *    Needs `distanceOutside(fenceId)` for fences with a margin; without it such fences exit at once.
 *  - a fix not newer than the last processed one is ignored (out-of-order or redelivered data does
 *    not generate events, as in Traccar; it also makes at-least-once delivery idempotent).
 *  - exits are listed before enters (Traccar #4223), each group ordered by fence id.
 *  - a fence that is no longer in `fences` and not reported inside is forgotten silently:
 *    deleting or unlinking a fence, or its calendar window closing, is not a movement of the device.
 */

export interface FenceRule {
  minDwellSeconds: number;
  exitMarginMeters: number;
}

const DEFAULT_FENCE_RULE: FenceRule = { minDwellSeconds: 0, exitMarginMeters: 0 };

/** inside-pending: inside since `since` (epoch ms) but dwell not yet met; inside: enter emitted. */
export type FenceMembership = { phase: 'pending'; since: number } | { phase: 'inside'; enteredAt: number };

/** JSON-serialisable; times are epoch milliseconds. */
export interface DeviceFenceState {
  v: 1;
  lastFixTime: number;
  /** where the last processed fix was (for segment crossings; absent in states saved before) */
  lon?: number;
  lat?: number;
  fences: Record<string, FenceMembership>;
}

export interface FenceFix {
  time: Date;
  lon: number;
  lat: number;
}

export interface FenceEvent {
  type: 'geofenceEnter' | 'geofenceExit' | 'geofenceCrossed';
  fenceId: string;
  time: Date;
  /** on exit: seconds between the enter time and the exit time */
  dwellSeconds?: number;
}

export interface StepResult {
  state: DeviceFenceState;
  events: FenceEvent[];
}

/** Events of one fix in fence id order (a module function: a named closure per call costs its name under tsx, issue 28). */
const byId = (a: FenceEvent, b: FenceEvent): number => (a.fenceId < b.fenceId ? -1 : a.fenceId > b.fenceId ? 1 : 0);

export function step(
  state: DeviceFenceState | undefined,
  fix: FenceFix,
  inside: ReadonlySet<string>,
  fences: ReadonlyMap<string, FenceRule>,
  distanceOutside?: (fenceId: string) => number,
): StepResult {
  const t = fix.time.getTime();
  if (!Number.isFinite(t)) throw new RangeError('fix.time is not a valid date');
  if (state && t <= state.lastFixTime) return { state, events: [] };

  const previous = state?.fences ?? {};
  const next: Record<string, FenceMembership> = {};
  const exits: FenceEvent[] = [];
  const enters: FenceEvent[] = [];
  const ids = new Set([...Object.keys(previous), ...inside]);

  for (const id of ids) {
    const member = previous[id];
    const isInside = inside.has(id);
    const rule = fences.get(id);
    if (!rule && !isInside) continue; // fence deleted or unlinked: forget it without an event
    const { minDwellSeconds, exitMarginMeters } = rule ?? DEFAULT_FENCE_RULE;

    if (isInside) {
      const since = member?.phase === 'inside' ? member.enteredAt : (member?.since ?? t);
      if (member?.phase === 'inside') next[id] = member;
      else if (t - since >= minDwellSeconds * 1000) {
        next[id] = { phase: 'inside', enteredAt: since };
        enters.push({ type: 'geofenceEnter', fenceId: id, time: new Date(since) });
      } else next[id] = { phase: 'pending', since };
      continue;
    }

    if (!member) continue;
    const beyondMargin = exitMarginMeters <= 0 || !distanceOutside || distanceOutside(id) > exitMarginMeters;
    if (!beyondMargin) {
      next[id] = member; // within the margin: still inside (or still dwelling)
      continue;
    }
    if (member.phase === 'inside') {
      exits.push({ type: 'geofenceExit', fenceId: id, time: fix.time, dwellSeconds: (t - member.enteredAt) / 1000 });
    }
  }

  return {
    state: { v: 1, lastFixTime: t, lon: fix.lon, lat: fix.lat, fences: next },
    events: [...exits.sort(byId), ...enters.sort(byId)],
  };
}
