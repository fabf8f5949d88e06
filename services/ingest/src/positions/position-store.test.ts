import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { PositionMessage, positionId } from '@corridor/contracts';
import { cacheKeys, type Cache } from '@corridor/platform';
import { MemoryCache } from '@corridor/platform/adapters/cache-memory';
import { RedisCache } from '@corridor/platform/adapters/cache-redis';
import { realPart } from '@corridor/platform/testing/real-parts';
import { updateLatest } from './position-store';

/**
 * The latest position with two writers (two instances of the position store, as during a consumer
 * rebalance): both have read, one writes a newer fix, then the other writes an older one. The
 * older one must not win. On the real Redis (two connections) when REDIS_URL is set (always in CI),
 * else on one in-process cache; the interleaving is forced, not left to timing: writer A's writes
 * are held until writer B has finished.
 */
const redis = await realPart('redis');
const prefix = `t${randomUUID().slice(0, 8)}:`;
const writers: [Cache, Cache] = (() => {
  if (redis) return [new RedisCache(redis.url, { keyPrefix: prefix }), new RedisCache(redis.url, { keyPrefix: prefix })];
  const one = new MemoryCache();
  return [one, one];
})();
afterAll(async () => {
  await Promise.all(writers.map((c) => c.close()));
});

const T0 = Date.UTC(2026, 10, 25, 6, 0, 0);
const fix = (deviceId: number, minute: number): PositionMessage => {
  const fixTime = new Date(T0 + minute * 60_000).toISOString();
  return PositionMessage.parse({
    id: positionId(deviceId, fixTime),
    deviceId,
    uniqueId: `dev-${deviceId}`,
    protocol: 'osmand',
    fixTime,
    serverTime: fixTime,
    valid: true,
    latitude: -1.28,
    longitude: 36.82 + minute / 1000,
    speed: 0,
    course: 0,
  });
};

/** The cache, with its writes held until `until` resolves (reads pass: they happen before the other writer's write). */
function heldWrites(cache: Cache, until: Promise<unknown>): Cache {
  return new Proxy(cache, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const write = prop === 'set' || prop === 'setJsonIfHigher';
      return async (...args: unknown[]) => {
        if (write) await until;
        return (v as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Writer A (held) and writer B write at once; A's writes land only after B finished. */
async function race(a: PositionMessage[], b: PositionMessage[]): Promise<void> {
  let bDone!: () => void;
  const afterB = new Promise<void>((r) => (bDone = r));
  const writerA = updateLatest(heldWrites(writers[0], afterB), a);
  await updateLatest(writers[1], b).finally(bDone);
  await writerA;
}

const latest = async (deviceId: number): Promise<PositionMessage | undefined> => {
  const raw = await writers[0].get(cacheKeys.latestPosition(deviceId));
  return raw === null ? undefined : (JSON.parse(raw) as PositionMessage);
};

describe(`latest position with two writers (${redis ? 'real Redis, two connections' : 'in-process cache'})`, () => {
  it('keeps the newer fix when the writer of an older one writes last (issue 11)', async () => {
    await race([fix(11, 0)], [fix(11, 5)]);
    expect((await latest(11))?.id).toBe(fix(11, 5).id);
    // and over a newer fix stored already
    await race([fix(11, 3)], [fix(11, 4)]);
    expect((await latest(11))?.id).toBe(fix(11, 5).id);
  });

  it('keeps the newest of interleaved old and new fixes of several devices, in either order of the writers', async () => {
    // writer A gets minutes 0, 2, 4 …, writer B 1, 3, 5 … of two devices, batch by batch, each
    // round with the other writer landing last
    for (let round = 0; round < 6; round++) {
      const a = [fix(21, 2 * round), fix(22, 2 * round + 1)];
      const b = [fix(21, 2 * round + 1), fix(22, 2 * round)];
      if (round % 2 === 0) await race(a, b);
      else await race(b, a);
      expect((await latest(21))?.id, `round ${round}`).toBe(fix(21, 2 * round + 1).id);
      expect((await latest(22))?.id, `round ${round}`).toBe(fix(22, 2 * round + 1).id);
    }
    // a late old fix after all of them changes nothing; a state record of the newest second is later than its fix
    await race([fix(21, 1)], [fix(22, 0)]);
    expect((await latest(21))?.id).toBe(fix(21, 11).id);
    const state = { ...fix(21, 11), id: positionId(21, fix(21, 11).fixTime, 'state'), valid: false };
    await updateLatest(writers[1], [state]);
    expect((await latest(21))?.id).toBe(state.id);
  });
});
