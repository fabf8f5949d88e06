import { afterAll, describe, expect, it } from 'vitest';
import type { Cache } from '../src/adapters/cache';
import { getJson } from '../src/adapters/cache';
import { eventually } from '../src/testing/eventually';
import { cacheVariants, uniqueName } from './adapter-variants';

const variants = await cacheVariants();

describe.each(variants)('Cache contract: $name', ({ create }) => {
  let cache: Cache;
  const k = (s: string) => uniqueName(`test:${s}`);
  afterAll(async () => {
    await cache?.close();
  });

  it('gets, sets, mgets and deletes strings', async () => {
    cache = await create();
    const a = k('a');
    const b = k('b');
    expect(await cache.get(a)).toBeNull();
    await cache.set(a, '1');
    await cache.set(b, JSON.stringify({ x: 2 }));
    expect(await cache.get(a)).toBe('1');
    expect(await cache.mget([a, k('missing'), b])).toEqual(['1', null, '{"x":2}']);
    expect(await getJson<{ x: number }>(cache, b)).toEqual({ x: 2 });
    expect(await cache.del(a, b, k('none'))).toBe(2);
    expect(await cache.get(a)).toBeNull();
  });

  it('expires keys after their TTL', async () => {
    const a = k('ttl');
    const setAt = Date.now();
    await cache.set(a, 'v', 1);
    expect(await cache.get(a)).toBe('v');
    // about time itself: Redis counts a TTL on its own clock (a second at least), so the test waits
    // for the key to go, on that clock, rather than for a duration of its own
    await eventually('the key to expire', async () => (await cache.get(a)) === null, 5000);
    expect(Date.now() - setAt).toBeGreaterThanOrEqual(900);
  });

  it('setIfAbsent sets once; incr counts', async () => {
    const a = k('nx');
    expect(await cache.setIfAbsent(a, 'first', 10)).toBe(true);
    expect(await cache.setIfAbsent(a, 'second', 10)).toBe(false);
    expect(await cache.get(a)).toBe('first');
    const c = k('ctr');
    expect(await cache.incr(c, 10)).toBe(1);
    expect(await cache.incr(c, 10)).toBe(2);
  });

  it('setJsonIfHigher sets a JSON object only over a lower rank (or none, or a value without one)', async () => {
    const a = k('ranked');
    const v = (id: number) => JSON.stringify({ id, at: `t${id}` });
    expect(await cache.setJsonIfHigher(a, v(2 ** 52 + 5), 'id', 2 ** 52 + 5)).toBe(true);
    expect(await cache.setJsonIfHigher(a, v(2 ** 52 + 4), 'id', 2 ** 52 + 4)).toBe(false);
    expect(await cache.setJsonIfHigher(a, v(2 ** 52 + 5), 'id', 2 ** 52 + 5)).toBe(false);
    expect(JSON.parse((await cache.get(a))!)).toEqual({ id: 2 ** 52 + 5, at: `t${2 ** 52 + 5}` });
    expect(await cache.setJsonIfHigher(a, v(2 ** 52 + 6), 'id', 2 ** 52 + 6)).toBe(true);
    expect(JSON.parse((await cache.get(a))!).id).toBe(2 ** 52 + 6);
    const b = k('unranked');
    await cache.set(b, 'not json');
    expect(await cache.setJsonIfHigher(b, v(1), 'id', 1)).toBe(true);
    expect(await cache.get(b)).toBe(v(1));
  });

  it('keeps hashes field by field', async () => {
    const h = k('hash');
    await cache.hset(h, { f1: 'a', f2: 'b' });
    await cache.hset(h, { f2: 'c' });
    expect(await cache.hget(h, 'f2')).toBe('c');
    expect(await cache.hgetall(h)).toEqual({ f1: 'a', f2: 'c' });
    expect(await cache.hdel(h, 'f1', 'nope')).toBe(1);
    expect(await cache.hgetall(h)).toEqual({ f2: 'c' });
    expect(await cache.hgetall(k('empty'))).toEqual({});
  });

  it('pings', async () => {
    await expect(cache.ping()).resolves.toBeUndefined();
  });
});
