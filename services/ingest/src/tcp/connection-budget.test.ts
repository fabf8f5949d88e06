import { execFileSync } from 'node:child_process';
import { createLogger } from '@corridor/platform';
import { describe, expect, it } from 'vitest';
import { ConnectionBudget, openFileLimit, openFiles } from './connection-budget';

/** The budget's arithmetic; a process under a low ulimit is in test/open-file-limit.test.ts. */
const logger = createLogger('test', 'silent');

describe('ConnectionBudget', () => {
  it('reads the soft open-file limit of this process, as the shell reports it', () => {
    const shell = execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim();
    expect(openFileLimit()).toBe(shell === 'unlimited' ? undefined : Number(shell));
  });

  it('keeps the files open now plus 10 % of the limit (at least 64) by default; the rest is for device connections', () => {
    const open = openFiles()!;
    const budget = new ConnectionBudget({ limit: 10_000, logger });
    expect(budget.size.reserve).toBeGreaterThanOrEqual(open + 1000);
    expect(budget.size.max).toBe(10_000 - budget.size.reserve);
    const small = new ConnectionBudget({ limit: 300, logger });
    expect(small.size.reserve).toBeGreaterThanOrEqual(open + 64);
  });

  it('refuses everything when the reserve takes the whole limit, and nothing when there is no limit', () => {
    const none = new ConnectionBudget({ limit: 100, reserve: 150, logger });
    expect(none.size.max).toBe(0);
    expect(none.take('gt06')).toBe(false);
    const unbounded = new ConnectionBudget({ limit: undefined, logger });
    for (let i = 0; i < 1000; i++) expect(unbounded.take('gt06')).toBe(true);
    expect(unbounded.open).toBe(1000);
  });

  it('gives back a file per release and takes again up to the budget', () => {
    const budget = new ConnectionBudget({ limit: 10, reserve: 7, logger });
    expect([budget.take('gt06'), budget.take('osmand'), budget.take('h02'), budget.take('gt06')]).toEqual([true, true, true, false]);
    budget.release();
    expect(budget.take('gt06')).toBe(true);
    expect(budget.take('gt06')).toBe(false);
    expect(budget.open).toBe(3);
  });
});
