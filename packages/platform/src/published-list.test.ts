import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MemoryCache } from './adapters/cache-memory';
import { createLogger } from './logger';
import { PublishedList } from './published-list';

const logger = createLogger('test', 'silent');

function reader(whenMissing: 'empty' | 'keep') {
  const cache = new MemoryCache();
  let t = 0;
  const applied: number[][] = [];
  const problems: string[] = [];
  const list = new PublishedList({
    cache,
    logger,
    key: 'k',
    what: 'numbers',
    schema: z.array(z.number()),
    whenMissing,
    reloadMs: 1000,
    now: () => t,
    apply: (l) => applied.push(l),
    onProblem: (k) => problems.push(k),
  });
  return { cache, list, applied, problems, advance: (ms: number) => (t += ms) };
}

describe('PublishedList', () => {
  it('applies a new list once, re-reads only after reloadMs, and keeps the list on malformed text', async () => {
    const r = reader('keep');
    await r.cache.set('k', '[1,2]');
    await r.list.refresh();
    await r.cache.set('k', '[3]');
    await r.list.refresh(); // within reloadMs: not re-read
    expect(r.applied).toEqual([[1, 2]]);
    r.advance(1000);
    await r.list.refresh();
    r.advance(1000);
    await r.list.refresh(); // same text: not applied again
    expect(r.applied).toEqual([[1, 2], [3]]);
    await r.cache.set('k', '["x"]');
    r.advance(1000);
    await r.list.refresh();
    expect(r.applied).toHaveLength(2);
    expect(r.problems).toEqual(['malformed']);
  });

  it("a lost key empties an 'empty' list and keeps a 'keep' list", async () => {
    for (const mode of ['empty', 'keep'] as const) {
      const r = reader(mode);
      await r.cache.set('k', '[1]');
      await r.list.refresh();
      await r.cache.del('k');
      r.advance(1000);
      await r.list.refresh();
      expect(r.applied).toEqual(mode === 'empty' ? [[1], []] : [[1]]);
      expect(r.problems).toEqual(mode === 'empty' ? [] : ['missing']);
    }
  });

  it('keeps the list when the cache fails', async () => {
    const r = reader('empty');
    await r.cache.set('k', '[1]');
    await r.list.refresh();
    r.cache.get = () => Promise.reject(new Error('down'));
    r.advance(1000);
    await r.list.refresh();
    expect(r.applied).toEqual([[1]]);
  });
});
