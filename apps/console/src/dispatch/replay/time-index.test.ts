import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TimeIndex } from './time-index';

describe("replay's time index", () => {
  const index = new TimeIndex([1000, 2000, 2000, 5000, 9000]);

  it('finds the last fix at or before a moment', () => {
    expect(index.indexAt(500)).toBe(0); // before the first fix: the first
    expect(index.indexAt(1000)).toBe(0);
    expect(index.indexAt(1999)).toBe(0);
    expect(index.indexAt(2000)).toBe(2); // two fixes at the same second: the later
    expect(index.indexAt(4999)).toBe(2);
    expect(index.indexAt(5000)).toBe(3);
    expect(index.indexAt(9000)).toBe(4);
    expect(index.indexAt(99_000)).toBe(4); // after the last: the last
    expect(new TimeIndex([]).indexAt(5)).toBe(-1);
  });

  it('finds the nearest fix', () => {
    expect(index.nearest(3400)).toBe(2);
    expect(index.nearest(3600)).toBe(3);
    expect(index.nearest(7000)).toBe(3); // a tie goes to the earlier
    expect(index.nearest(7001)).toBe(4);
  });

  it('says how far between two fixes a moment is, and holds still over a gap in the data', () => {
    expect(index.locate(3500)).toEqual({ i: 2, frac: 0.5 });
    expect(index.locate(5000)).toEqual({ i: 3, frac: 0 });
    expect(index.locate(7000, 3000)).toEqual({ i: 3, frac: 0 }); // 4 s between fixes 3 and 4: a gap
    expect(index.locate(9500)).toEqual({ i: 4, frac: 0 });
  });

  it('refuses times out of order', () => {
    expect(() => new TimeIndex([2, 1])).toThrow(RangeError);
  });

  it('agrees with a linear scan for any sorted times and any moment', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1000 }), { maxLength: 60 }), fc.integer({ min: -10, max: 1010 }), (raw, t) => {
        const times = [...raw].sort((a, b) => a - b);
        const idx = new TimeIndex(times);
        let expected = times.length ? 0 : -1;
        for (let i = 0; i < times.length; i++) if (times[i]! <= t) expected = i;
        expect(idx.indexAt(t)).toBe(expected);
      }),
    );
  });

  it('answers a day of 10 s fixes (8,640) in at most 14 comparisons a lookup', () => {
    const day = Array.from({ length: 8640 }, (_, i) => i * 10_000);
    let reads = 0;
    const idx = new TimeIndex(day);
    const counting = new Proxy(idx.times, {
      get: (target, key) => (typeof key === 'string' && /^\d+$/.test(key) && reads++, Reflect.get(target, key)),
    });
    Object.defineProperty(idx, 'times', { value: counting });
    for (const t of [0, 1, 43_199_999, 86_390_000, 50_000_005]) {
      reads = 0;
      expect(idx.indexAt(t)).toBe(Math.min(8639, Math.floor(t / 10_000)));
      expect(reads).toBeLessThanOrEqual(14 + 1);
    }
  });
});
