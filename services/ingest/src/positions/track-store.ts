import { PositionMessage } from '@corridor/contracts';
import { cacheKeys, counter, type Cache, type Logger } from '@corridor/platform';
import { trackFromLatest, type AccumulatorOverride, type TrackState } from './track';

const cacheFailures = counter(
  'ingest_track_state_cache_failures_total',
  'Track-state reads or writes the cache refused (the in-process copy was used)',
  ['op'],
);

/** Cache key of a device's track state (ingest's own: written and read by ingest instances). */
export const TRACK_STATE_PREFIX = 'ingest:track:';
const trackStateKey = (deviceId: number): string => `${TRACK_STATE_PREFIX}${deviceId}`;
/** A device's track state outlives a month of silence. */
const TTL_SECONDS = 90 * 86_400;

const parse = <T>(raw: string | null | undefined): T | undefined => {
  if (!raw) return undefined;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return undefined;
  }
};

/**
 * Where ingest keeps each device's track state between positions: the shared cache (any ingest
 * instance may get the device's next connection), with an in-process copy that stands in while the
 * cache is unavailable, so an outage of the cache never holds positions back. A device without a
 * state starts from its latest stored position's accumulators (the position writer's cache entry).
 * A save is issued at once and not waited for: the cache runs one connection's commands in order,
 * so the device's next load (issued later) reads it, and the device's ack does not wait for it.
 */
export class TrackStore {
  private readonly local = new Map<number, TrackState>();
  private readonly saving = new Set<Promise<void>>();

  constructor(
    private readonly cache: Cache,
    private readonly logger: Logger,
  ) {}

  async load(deviceIds: number[]): Promise<{ states: Map<number, TrackState | undefined>; overrides: Map<number, AccumulatorOverride> }> {
    const states = new Map<number, TrackState | undefined>();
    const overrides = new Map<number, AccumulatorOverride>();
    let raw: (string | null)[];
    try {
      raw = await this.cache.mget([...deviceIds.map(trackStateKey), ...deviceIds.map(cacheKeys.accumulatorsSet)]);
    } catch (err) {
      cacheFailures.inc({ op: 'read' });
      this.logger.warn({ err: (err as Error).message }, 'cache unavailable: track state from this instance');
      for (const id of deviceIds) states.set(id, this.local.get(id));
      return { states, overrides };
    }
    const missing: number[] = [];
    deviceIds.forEach((id, i) => {
      const s = parse<TrackState>(raw[i]);
      if (s?.v === 1) states.set(id, s);
      else missing.push(id);
      const o = parse<AccumulatorOverride>(raw[deviceIds.length + i]);
      if (o && typeof o.setAt === 'number') overrides.set(id, o);
    });
    if (missing.length) {
      const latest = await this.cache.mget(missing.map(cacheKeys.latestPosition)).catch(() => missing.map(() => null));
      missing.forEach((id, i) => {
        const p = PositionMessage.safeParse(parse(latest[i]));
        states.set(id, p.success ? trackFromLatest(p.data) : this.local.get(id));
      });
    }
    return { states, overrides };
  }

  /** Issues the writes (in order with every later command) and returns without waiting for them; `settled()` waits. */
  save(states: Map<number, TrackState>): void {
    for (const [id, s] of states) this.local.set(id, s);
    const writes = Promise.all([...states].map(([id, s]) => this.cache.set(trackStateKey(id), JSON.stringify(s), TTL_SECONDS))).then(
      () => undefined,
      (err: unknown) => {
        cacheFailures.inc({ op: 'write' });
        this.logger.warn({ err: (err as Error).message }, 'cache unavailable: track state kept in this instance only');
      },
    );
    this.saving.add(writes);
    void writes.finally(() => this.saving.delete(writes));
  }

  /** Every save issued so far has been answered (before the cache is closed). */
  async settled(): Promise<void> {
    await Promise.all([...this.saving]);
  }
}
