import { describe, expect, it } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useReplayClock } from './useReplayClock';

/** Animation frames handed out by the test: each `frame(ms)` runs the pending callback at that time. */
function frames() {
  let pending: ((now: number) => void) | null = null;
  return {
    schedule: { request: (cb: (now: number) => void) => ((pending = cb), 1), cancel: () => void (pending = null) },
    frame(now: number) {
      const cb = pending;
      pending = null;
      act(() => cb?.(now));
    },
    get waiting() {
      return pending !== null;
    },
  };
}

describe("replay's clock", () => {
  it('moves by the real time between frames times the speed, and stops at the end', () => {
    const f = frames();
    const { result } = renderHook(() => useReplayClock(0, 3_600_000, f.schedule));
    act(() => result.current.setSpeed(60));
    act(() => result.current.play());
    f.frame(1000); // the first frame only starts the count
    expect(result.current.time).toBe(0);
    f.frame(1016);
    expect(result.current.time).toBe(16 * 60);
    f.frame(2016); // one second later: one minute of the period at 60×
    expect(result.current.time).toBe(16 * 60 + 60_000);
    act(() => result.current.setSpeed(1200));
    f.frame(5000); // a new speed starts a new count
    f.frame(7000);
    expect(result.current.time).toBe(16 * 60 + 60_000 + 2000 * 1200);
    f.frame(20_000);
    expect(result.current.time).toBe(3_600_000);
    expect(result.current.playing).toBe(false);
    expect(f.waiting).toBe(false);
  });

  it('plays again from the start once at the end, and seeking stays within the period', () => {
    const f = frames();
    const { result } = renderHook(() => useReplayClock(1000, 2000, f.schedule));
    act(() => result.current.seek(5000));
    expect(result.current.time).toBe(2000);
    act(() => result.current.play());
    f.frame(0);
    expect(result.current.time).toBe(1000);
    act(() => result.current.pause());
    expect(f.waiting).toBe(false);
    act(() => result.current.seek(-5));
    expect(result.current.time).toBe(1000);
  });
});
