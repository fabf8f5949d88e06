import { PositionMessage, Topics } from '@corridor/contracts';
import {
  consumeValidated,
  counter,
  histogram,
  unavailable,
  type Bus,
  type Cache,
  type Clock,
  type Logger,
  type Subscription,
} from '@corridor/platform';
import type { DeviceDirectory } from '../evaluator/device-directory';
import type { FenceCatalog } from '../evaluator/fence-catalog';
import { corridorLines } from './corridor-lines';
import type { FactWriter } from './fact-writer';
import type { ObservatoryFact } from './facts';
import { ObservatoryMap, observatoryPlaces } from './observatory-map';
import { DEFAULT_TRACKER_SETTINGS, track, type TrackerSettings, type TrackerState, type TrackFix } from './tracker';

const fixesTracked = counter('observatory_fixes_total', 'Positions seen by the observatory tracker', ['outcome']);
const factsWritten = counter('observatory_facts_total', 'Facts the observatory tracker wrote', ['kind']);
const legsSkipped = counter('observatory_legs_skipped_total', 'Legs not made: the next place reached was not the adjacent one');
const trackLag = histogram(
  'observatory_track_lag_seconds',
  'Server time of a position to its facts written and state saved',
  [],
  [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
);

/** Every tracker instance joins this group; positions.v1's partitions (by device) are split among them. */
const OBSERVATORY_GROUP = 'geofence-observatory';
export const observatoryStateKey = (deviceId: number): string => `observatory:device:${deviceId}`;

/** A fix ahead of its server time by more than this would freeze the device's state (as for the geofence evaluator). */
const MAX_FUTURE_MS = 24 * 3600_000;
/** A held state not used for this long (server time) is dropped; the cache still has it. */
const HELD_IDLE_MS = 3600_000;
const KMH_PER_KNOT = 1.852;

const trackFixOf = (p: PositionMessage): TrackFix => ({
  t: Date.parse(p.fixTime),
  lon: p.longitude,
  lat: p.latitude,
  speedKmh: p.speed * KMH_PER_KNOT,
});

function parseState(raw: string | null | undefined, logger: Logger, deviceId: number): TrackerState | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as TrackerState;
    if (s.v === 1 && typeof s.t === 'number' && s.fences && typeof s.fences === 'object') return s;
  } catch {
    // fall through
  }
  logger.warn({ deviceId }, 'unreadable observatory state in the cache; starting afresh');
  return undefined;
}

export interface ObservatoryTrackerDeps {
  catalog: FenceCatalog;
  directory: DeviceDirectory;
  cache: Cache;
  bus: Bus;
  write: FactWriter;
  clock: Clock;
  logger: Logger;
  settings?: TrackerSettings;
}

/**
 * The observatory tracker as a consumer of positions.v1 (its own group, beside the geofence
 * evaluator): each batch's fixes through `track` per device, with the device's state from the
 * cache; the facts are written to ClickHouse before the states are saved, so a crash between the
 * two redelivers the batch and writes the same facts again (they collapse), never loses them. The
 * places are the catalog's shared fences of the place kinds, rebuilt when the catalog changes.
 */
export class ObservatoryTracker {
  /**
   * Each device's state as this instance last saved it, with the text it saved: a batch whose
   * cached text is that text goes on from the held object instead of parsing it (parsing and
   * writing every device's state per batch was 9 % of the embedded stack's main thread at
   * saturation, issue 28). Any other text (another instance processed the device since: a
   * rebalance; a restart) is parsed as before. A device's entry is taken out while its batch runs
   * and put back only once its state is saved, so a batch that fails leaves nothing half-advanced.
   * Bounded by the devices this instance processes; a device not seen for HELD_IDLE_MS is dropped.
   */
  private readonly held = new Map<number, { state: TrackerState; text: string; at: number }>();
  private lastSweep = 0;
  private map: ObservatoryMap | undefined;
  private mapVersion = -1;
  private readonly lines = corridorLines();
  private sub: Subscription | undefined;

  constructor(private readonly deps: ObservatoryTrackerDeps) {}

  /** The places and lines as they stand (rebuilt when the geofences changed). */
  currentMap(): ObservatoryMap {
    const { catalog } = this.deps;
    if (!this.map || this.mapVersion !== catalog.version) {
      this.map = new ObservatoryMap(observatoryPlaces(catalog.all(), this.lines), this.lines);
      this.mapVersion = catalog.version;
    }
    return this.map;
  }

  async handle(positions: readonly PositionMessage[]): Promise<ObservatoryFact[]> {
    const { cache, logger } = this.deps;
    const byDevice = new Map<number, PositionMessage[]>();
    for (const p of positions) {
      if (!p.valid || p.attributes.outdated === true || Date.parse(p.fixTime) > Date.parse(p.serverTime) + MAX_FUTURE_MS) {
        fixesTracked.inc({ outcome: 'skipped' });
        continue;
      }
      const list = byDevice.get(p.deviceId);
      if (list) list.push(p);
      else byDevice.set(p.deviceId, [p]);
    }
    if (!byDevice.size) return [];
    const deviceIds = [...byDevice.keys()];
    let raw: (string | null)[];
    try {
      raw = await cache.mget(deviceIds.map(observatoryStateKey));
    } catch (err) {
      throw unavailable('cache', err);
    }
    const infos = await this.deps.directory.lookup(deviceIds.map((id) => ({ deviceId: id, uniqueId: byDevice.get(id)![0]!.uniqueId })));
    const map = this.currentMap();
    const facts: ObservatoryFact[] = [];
    const saved: [number, TrackerState, string][] = [];
    deviceIds.forEach((deviceId, i) => {
      const h = this.held.get(deviceId);
      this.held.delete(deviceId);
      let state = h && raw[i] === h.text ? h.state : parseState(raw[i], logger, deviceId);
      for (const p of byDevice.get(deviceId)!) {
        const fix = trackFixOf(p);
        fixesTracked.inc({ outcome: state && fix.t <= state.t ? 'stale' : 'tracked' });
        const r = track(state, deviceId, fix, map, this.deps.settings ?? DEFAULT_TRACKER_SETTINGS);
        if (r.skipped) legsSkipped.inc(r.skipped);
        state = r.state;
        facts.push(...r.facts);
      }
      if (state) saved.push([deviceId, state, JSON.stringify(state)]);
    });
    try {
      await this.deps.write(facts, (id) => infos.get(id)?.companyId);
    } catch (err) {
      throw unavailable('ClickHouse', err);
    }
    try {
      await Promise.all(saved.map(([id, , text]) => cache.set(observatoryStateKey(id), text)));
    } catch (err) {
      throw unavailable('cache', err);
    }
    const at = this.deps.clock.now().getTime();
    for (const [id, state, text] of saved) this.held.set(id, { state, text, at });
    if (at - this.lastSweep >= HELD_IDLE_MS) {
      this.lastSweep = at;
      for (const [id, h] of this.held) if (at - h.at >= HELD_IDLE_MS) this.held.delete(id);
    }
    for (const f of facts) factsWritten.inc({ kind: f.kind });
    for (const p of positions) if (byDevice.has(p.deviceId)) trackLag.observe(Math.max(0, at - Date.parse(p.serverTime)) / 1000);
    return facts;
  }

  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.deps.bus,
      logger: this.deps.logger,
      groupId: OBSERVATORY_GROUP,
      topic: Topics.positions,
      schema: PositionMessage,
      fromBeginning: true,
      handle: async (positions) => {
        await this.handle(positions);
      },
    });
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
    this.sub = undefined;
    this.held.clear();
  }
}
