import { describe, expect, it } from 'vitest';
import { RecentIds } from './recent-ids';

describe('RecentIds', () => {
  it('passes an id the first time and refuses it while remembered', () => {
    const ids = new RecentIds<number>(4);
    expect([1, 2, 1, 3, 2].map((id) => ids.firstTime(id))).toEqual([true, true, false, true, false]);
  });

  it('forgets the oldest ids beyond its capacity, and only those', () => {
    const ids = new RecentIds<string>(3);
    for (const id of ['a', 'b', 'c', 'd']) ids.firstTime(id); // 'a' is evicted by 'd'
    expect(ids.firstTime('b')).toBe(false);
    expect(ids.firstTime('d')).toBe(false);
    expect(ids.firstTime('a')).toBe(true);
  });
});
