import { geofenceAppliesTo, type EventMessage, type PositionMessage } from '@corridor/contracts';
import { counter, histogram, unavailable, type Cache, type Clock, type Logger, type SettingLayers } from '@corridor/platform';
import type { CalendarGate } from '../calendars/calendar-gate';
import { distanceOutsideMeters } from '../fences/geometry';
import { applyInsideChanges, geofenceKeys, type InsideChange } from '../inside/inside-sets';
import type { DeviceDirectory, DeviceInfo } from './device-directory';
import type { EventWriter } from './event-writer';
import { groupChainIds, type CatalogFence, type FenceCatalog } from './fence-catalog';
import { step, type DeviceFenceState, type FenceEvent, type FenceRule } from './fence-state';
import { crossedFences, segmentCrossingOn } from './segment-crossings';

const fixesEvaluated = counter('geofence_fixes_total', 'Positions seen by the geofence evaluator', ['outcome']);
const eventsEmitted = counter('geofence_events_total', 'Geofence events emitted', ['type']);
const evaluationLag = histogram(
  'geofence_evaluation_lag_seconds',
  'Server time of a position to its evaluation done (events stored and published, state saved)',
  [],
  [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/** A fix more than this far ahead of its server time would freeze the device's state (later fixes look old). */
const MAX_FUTURE_MS = 24 * 3600_000;

function parseState(raw: string | null | undefined, logger: Logger, deviceId: number): DeviceFenceState | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as DeviceFenceState;
    if (s.v === 1 && typeof s.lastFixTime === 'number' && s.fences && typeof s.fences === 'object') return s;
  } catch {
    // fall through
  }
  logger.warn({ deviceId }, 'unreadable geofence state in the cache; starting afresh');
  return undefined;
}

/** fence id → enter time, of the fences the device is confirmed inside. */
function insideSince(state: DeviceFenceState | undefined): Map<string, number> {
  const out = new Map<string, number>();
  for (const [id, m] of Object.entries(state?.fences ?? {})) if (m.phase === 'inside') out.set(id, m.enteredAt);
  return out;
}

function toEvent(e: FenceEvent, p: PositionMessage, fence: CatalogFence | undefined, info: DeviceInfo | undefined): EventMessage {
  const attributes: Record<string, unknown> = {};
  // name, kind and country travel with the event: the compliance dashboards group dwell by them
  if (fence) Object.assign(attributes, { geofenceName: fence.name, geofenceKind: fence.kind, country: fence.country });
  if (info?.companyId != null) attributes.companyId = info.companyId;
  if (e.dwellSeconds !== undefined) {
    attributes.dwellSeconds = e.dwellSeconds;
    attributes.enteredAt = new Date(e.time.getTime() - e.dwellSeconds * 1000).toISOString();
  }
  return {
    id: `${p.deviceId}-${e.type}-${e.fenceId}-${e.time.getTime()}`,
    type: e.type,
    eventTime: e.time.toISOString(),
    deviceId: p.deviceId,
    positionId: p.id,
    journeyId: null,
    geofenceId: e.fenceId,
    latitude: p.latitude,
    longitude: p.longitude,
    attributes,
  };
}

export interface PositionEvaluatorDeps {
  catalog: FenceCatalog;
  /** the calendars of fences that have a calendarId */
  calendars: CalendarGate;
  directory: DeviceDirectory;
  /** the groups' and the server's attributes (event.geofence.segmentCrossing) */
  settings: SettingLayers;
  cache: Cache;
  write: EventWriter;
  clock: Clock;
  logger: Logger;
}

/**
 * One batch of positions (one partition, in order) through the fences: candidates from the index,
 * filtered by the device's links (contracts geofenceAppliesTo: association fences apply to every
 * truck, others to the devices linked to them directly or through their group chain), then the hysteresis step per device with its state from the
 * cache. Events are stored and published before the new states are saved, so a crash in between
 * redelivers the batch and recomputes the same events (same ids) rather than losing them; a
 * restart finds the states and does not enter again.
 *
 * A fence with a calendarId is active only while one of its calendar's events runs at the fix's
 * time (Traccar's GeofenceEventHandler). An inactive fence is treated as absent for that fix: no
 * enter and no exit, and a device that was inside or dwelling there is forgotten silently, as when
 * a fence is unlinked. So a device still inside when the window closes gets no exit; if it is still
 * inside when the window opens again, it enters at the first fix inside the window (the visit is
 * counted from there, and its exit carries that dwell). Traccar instead keeps the membership while
 * the fence is inactive, so a device parked across the opening never enters and its later exit has
 * no enter. Fences without a calendar cost one null test; calendars are not read at all while no
 * fence has one.
 *
 * With `event.geofence.segmentCrossing` true for the device (its attribute, else its group chain's,
 * else the server's; default false), a fence that the straight segment from the previous processed
 * fix to this one passes through, while neither fix is inside it, gives a geofenceCrossed event at
 * this fix (between the exits and the enters). A fence the device is a member of on either side
 * (dwelling, or outside within its exit margin) is left to the enter/exit rules. The previous fix's
 * place is kept in the device's state; a state saved before that has none, so the first fix after
 * an upgrade cannot cross.
 */
export class PositionEvaluator {
  constructor(private readonly deps: PositionEvaluatorDeps) {}

  async handle(positions: readonly PositionMessage[]): Promise<EventMessage[]> {
    const { catalog, calendars, cache, logger } = this.deps;
    const byDevice = new Map<number, PositionMessage[]>();
    for (const p of positions) {
      if (!p.valid || Date.parse(p.fixTime) > Date.parse(p.serverTime) + MAX_FUTURE_MS) {
        fixesEvaluated.inc({ outcome: 'skipped' });
        continue;
      }
      const list = byDevice.get(p.deviceId);
      if (list) list.push(p);
      else byDevice.set(p.deviceId, [p]);
    }
    if (!byDevice.size) return [];
    await Promise.all([catalog.calendarFences > 0 ? calendars.refresh() : undefined, this.deps.settings.refresh()]);
    const deviceIds = [...byDevice.keys()];
    let rawStates: (string | null)[];
    try {
      rawStates = await cache.mget(deviceIds.map(geofenceKeys.deviceState));
    } catch (err) {
      throw unavailable('cache', err);
    }
    const infos = await this.deps.directory.lookup(deviceIds.map((id) => ({ deviceId: id, uniqueId: byDevice.get(id)![0]!.uniqueId })));

    const events: EventMessage[] = [];
    const saved: [number, DeviceFenceState][] = [];
    const inside: InsideChange[] = [];
    deviceIds.forEach((deviceId, i) => {
      const info = infos.get(deviceId);
      const groups = groupChainIds(this.deps.settings, info?.groupId);
      /** The fence when it applies to the device and is active at `t` (epoch ms of the fix). */
      const applicable = (id: string, t: number): CatalogFence | undefined => {
        const f = catalog.get(id);
        if (!f || !geofenceAppliesTo(f, deviceId, groups)) return undefined;
        return f.calendarId === null || calendars.activeAt(f.calendarId, t) ? f : undefined;
      };
      const initial = parseState(rawStates[i], logger, deviceId);
      const crossing = segmentCrossingOn(this.deps.settings.of(info ?? { groupId: null }));
      let state = initial;
      for (const p of byDevice.get(deviceId)!) {
        const lon = p.longitude;
        const lat = p.latitude;
        const time = new Date(p.fixTime);
        const t = time.getTime();
        const hits = new Set<string>();
        const rules = new Map<string, FenceRule>();
        for (const id of catalog.containing(lon, lat)) {
          const f = applicable(id, t);
          if (!f) continue;
          hits.add(id);
          rules.set(id, f.rule);
        }
        for (const id of Object.keys(state?.fences ?? {})) {
          if (rules.has(id)) continue;
          const f = applicable(id, t);
          if (f) rules.set(id, f.rule);
        }
        const r = step(state, { time, lon, lat }, hits, rules, (id) => {
          const f = catalog.get(id);
          return f ? distanceOutsideMeters(f.shape, lon, lat) : Infinity;
        });
        fixesEvaluated.inc({ outcome: r.state === state ? 'stale' : 'evaluated' });
        const crossed: FenceEvent[] = [];
        if (crossing && r.state !== state && state?.lon !== undefined && state.lat !== undefined) {
          const before = state.fences;
          const from = [state.lon, state.lat] as const;
          const ids = crossedFences(
            from,
            [lon, lat],
            catalog.nearSegment(from, [lon, lat]),
            (id) => applicable(id, t)?.shape,
            (id) => hits.has(id) || id in before || id in r.state.fences,
          );
          for (const fenceId of ids) crossed.push({ type: 'geofenceCrossed', fenceId, time });
        }
        state = r.state;
        // exits, then crossings (passed on the way), then enters
        const ordered = [
          ...r.events.filter((e) => e.type === 'geofenceExit'),
          ...crossed,
          ...r.events.filter((e) => e.type !== 'geofenceExit'),
        ];
        for (const e of ordered) events.push(toEvent(e, p, catalog.get(e.fenceId), info));
      }
      if (!state || state === initial) return;
      saved.push([deviceId, state]);
      const before = insideSince(initial);
      const after = insideSince(state);
      for (const [fenceId, enteredAt] of after) {
        if (before.get(fenceId) !== enteredAt) inside.push({ fenceId, deviceId, entry: { enteredAt, companyId: info?.companyId ?? null } });
      }
      for (const fenceId of before.keys()) if (!after.has(fenceId)) inside.push({ fenceId, deviceId, entry: null });
    });

    await this.deps.write(events);
    try {
      await Promise.all([
        ...saved.map(([deviceId, s]) => cache.set(geofenceKeys.deviceState(deviceId), JSON.stringify(s))),
        applyInsideChanges(cache, inside),
      ]);
    } catch (err) {
      throw unavailable('cache', err);
    }
    const now = this.deps.clock.now().getTime();
    for (const e of events) eventsEmitted.inc({ type: e.type });
    for (const p of positions) if (byDevice.has(p.deviceId)) evaluationLag.observe(Math.max(0, now - Date.parse(p.serverTime)) / 1000);
    if (events.length) logger.debug({ events: events.map((e) => `${e.deviceId}:${e.type}:${e.geofenceId}`) }, 'geofence events');
    return events;
  }
}
