import { describe, expect, it } from 'vitest';
import { CeilingPassed, until } from './until';

describe('until', () => {
  it('resolves once the condition holds', async () => {
    let n = 0;
    await until('the third look', () => ++n === 3, 5_000, 1);
    expect(n).toBe(3);
  });

  it('throws CeilingPassed, naming what it waited for, when the condition never holds', async () => {
    const err = await until('a condition that never holds', () => false, 20, 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CeilingPassed);
    expect((err as Error).message).toMatch(/a condition that never holds/);
  });

  it('passes on what the condition throws as it is, never as the ceiling (scenario.ts tells the two apart)', async () => {
    const failure = new Error('journey-2 exited with code 1');
    const err = await until('a condition that fails', () => Promise.reject(failure), 60_000, 1).catch((e: unknown) => e);
    expect(err).toBe(failure);
    expect(err).not.toBeInstanceOf(CeilingPassed);
  });
});
