import { randomUUID } from 'node:crypto';
import { unavailable, type Cache } from '@corridor/platform';
import type { JourneyState } from '../detectors/journey-evaluator';
import { journeyKeys, STATE_TTL_SECONDS } from './journey-keys';

const LOCK_TTL_SECONDS = 30;

/**
 * Per-journey hot state (the evaluator's JSON state) in the cache, and per-device locks that keep
 * the position consumer and the timer sweep from overwriting each other's state.
 */
export class HotState {
  private readonly token = randomUUID();

  constructor(private readonly cache: Cache) {}

  async load(journeyIds: number[]): Promise<Map<number, JourneyState | undefined>> {
    const out = new Map<number, JourneyState | undefined>();
    for (let i = 0; i < journeyIds.length; i += 1000) {
      const chunk = journeyIds.slice(i, i + 1000);
      const values = await this.cache.mget(chunk.map(journeyKeys.state));
      chunk.forEach((id, k) => out.set(id, parse(values[k] ?? null)));
    }
    return out;
  }

  async save(states: Map<number, JourneyState>): Promise<void> {
    await Promise.all([...states].map(([id, s]) => this.cache.set(journeyKeys.state(id), JSON.stringify(s), STATE_TTL_SECONDS)));
  }

  async drop(journeyIds: Iterable<number>): Promise<void> {
    const keys = [...journeyIds].map(journeyKeys.state);
    if (keys.length) await this.cache.del(...keys);
  }

  /** Locks every device, waiting up to `waitMs` for locks held elsewhere; throws a retryable error after that. */
  async lockAll(deviceIds: number[], waitMs: number): Promise<void> {
    const deadline = Date.now() + waitMs;
    let pending = deviceIds;
    const held: number[] = [];
    for (;;) {
      const got = await Promise.all(pending.map((d) => this.cache.setIfAbsent(journeyKeys.deviceLock(d), this.token, LOCK_TTL_SECONDS)));
      held.push(...pending.filter((_, i) => got[i]));
      pending = pending.filter((_, i) => !got[i]);
      if (!pending.length) return;
      if (Date.now() > deadline) {
        await this.unlock(held);
        throw unavailable(`journey locks of devices ${pending.slice(0, 5).join(', ')}`);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  /** One device, without waiting: false when someone else holds it. */
  async tryLock(deviceId: number): Promise<boolean> {
    return this.cache.setIfAbsent(journeyKeys.deviceLock(deviceId), this.token, LOCK_TTL_SECONDS);
  }

  async unlock(deviceIds: number[]): Promise<void> {
    if (deviceIds.length) await this.cache.del(...deviceIds.map(journeyKeys.deviceLock));
  }
}

function parse(value: string | null): JourneyState | undefined {
  if (value === null) return undefined;
  const s = JSON.parse(value) as JourneyState;
  return s?.version === 1 ? s : undefined;
}
