import { describe, expect, it } from 'vitest';
import { eventually } from './eventually';

describe('eventually', () => {
  it('returns the first answer that is neither undefined nor false', async () => {
    const answers = [undefined, false, 0, 1];
    let calls = 0;
    await expect(eventually('the third answer', () => answers[calls++])).resolves.toBe(0);
    expect(calls).toBe(3);
  });

  it('awaits async probes and retries those that throw', async () => {
    let calls = 0;
    const value = await eventually('a probe that fails twice', async () => {
      calls += 1;
      if (calls < 3) throw new Error(`not up yet (${calls})`);
      return { ready: true };
    });
    expect(value).toEqual({ ready: true });
    expect(calls).toBe(3);
  });

  it('fails at the ceiling naming what it waited for and the last answer seen', async () => {
    let calls = 0;
    const never = () => (++calls, false);
    await expect(eventually('the door to open', never, { ceilingMs: 200, everyMs: 10 })).rejects.toThrow(
      'timed out after 0.2 s waiting for the door to open (last answer: false)',
    );
    expect(calls).toBeGreaterThan(1);
  });

  it('fails at the ceiling with the last error the probe threw, kept as the cause', async () => {
    const err = await eventually('the gateway', async () => Promise.reject(new Error('connect ECONNREFUSED')), 200).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toBe('timed out after 0.2 s waiting for the gateway (last error: connect ECONNREFUSED)');
    expect(((err as Error).cause as Error).message).toBe('connect ECONNREFUSED');
  });
});
