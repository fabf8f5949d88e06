import { describe, expect, it } from 'vitest';
import { IntakeGate } from './intake-gate';

/** The intake gate's arithmetic on a clock the test moves. */
function gate(opts: { max?: number; min?: number; targetMs?: number } = {}) {
  let now = 0;
  const g = new IntakeGate({
    maxPending: opts.max ?? 100_000,
    minPending: opts.min ?? 10,
    targetDelayMs: opts.targetMs ?? 500,
    now: () => now,
  });
  return { g, advance: (ms: number) => (now += ms) };
}

describe('IntakeGate', () => {
  it('starts at twice its floor and refuses what finds no room', () => {
    const { g } = gate({ min: 10 });
    expect(g.limit).toBe(20);
    g.admit(19);
    expect(g.tryAdmit(1, 'http')).toBe(true);
    expect(g.hasRoom).toBe(false);
    expect(g.tryAdmit(1, 'http')).toBe(false);
    expect(g.tryAdmit(1, 'udp')).toBe(false);
    g.release(5);
    expect(g.tryAdmit(1, 'http')).toBe(true);
  });

  it('follows the publish rate measured while work is pending: limit = rate × target, within its bounds', () => {
    const { g, advance } = gate({ min: 10, max: 1000, targetMs: 500 });
    // 400 fixes confirmed over one busy second: 400/s, so 200 may wait (0.5 s)
    g.admit(400);
    advance(999);
    g.release(300);
    expect(g.publishRate).toBeUndefined(); // the second is not over yet
    advance(1);
    g.release(100);
    expect(g.publishRate).toBe(400);
    expect(g.limit).toBe(200);
    // idle time does not count: a trickle after a long pause is not a low rate
    advance(60_000);
    g.admit(1);
    advance(1);
    g.release(1);
    expect(g.limit).toBe(200);
  });

  it('never goes below its floor nor above its ceiling', () => {
    const slow = gate({ min: 50, max: 1000 });
    slow.g.admit(1);
    slow.advance(2000);
    slow.g.release(1); // 1 fix in 2 s
    expect(slow.g.limit).toBe(50);
    const fast = gate({ min: 50, max: 1000 });
    fast.g.admit(100_000);
    fast.advance(1000);
    fast.g.release(100_000);
    expect(fast.g.limit).toBe(1000);
  });

  it('wakes waiters oldest first while there is room, each at most once per release', () => {
    const { g } = gate({ min: 2 }); // limit 4
    g.admit(4);
    const woken: string[] = [];
    const waiter = (name: string, takes: number, again = false): (() => void) => {
      const wake = (): void => {
        woken.push(name);
        g.admit(takes);
        if (again) g.wait(wake); // still holds frames: waits again, at the end of the line
      };
      return wake;
    };
    g.wait(waiter('a', 1, true));
    g.wait(waiter('b', 1));
    g.wait(waiter('c', 1));
    g.release(2); // room for 2: a, then b
    expect(woken).toEqual(['a', 'b']);
    g.release(1); // room for 1: c (a waits behind it)
    expect(woken).toEqual(['a', 'b', 'c']);
    g.release(1);
    expect(woken).toEqual(['a', 'b', 'c', 'a']);
  });

  it('suggests a Retry-After of about the time to publish what is pending, 1 to 30 s', () => {
    const { g, advance } = gate({ min: 10, max: 100_000 });
    expect(g.retryAfterSeconds()).toBe(1);
    g.admit(100);
    advance(1000);
    g.release(100); // 100/s
    g.admit(1000);
    expect(g.retryAfterSeconds()).toBe(10);
    g.admit(100_000);
    expect(g.retryAfterSeconds()).toBe(30);
  });
});
