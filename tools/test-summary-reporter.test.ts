import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TestModule } from 'vitest/node';
import SummaryReporter from './test-summary-reporter';

/** A module as the reporter reads it: its id, its state and its tests' states. */
function moduleOf(moduleId: string, states: string[]): TestModule {
  const tests = states.map((state, i) => ({ fullName: `test ${i}`, result: () => ({ state }) }));
  return {
    moduleId,
    state: () => (states.includes('failed') ? 'failed' : 'passed'),
    children: { allTests: () => tests },
  } as unknown as TestModule;
}

function run(modules: TestModule[]): string {
  let out = '';
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    out += String(chunk);
    return true;
  });
  try {
    new SummaryReporter().onTestRunEnd(modules);
  } finally {
    write.mockRestore();
  }
  return out;
}

describe('the summary line', () => {
  const exitCode = process.exitCode;
  afterEach(() => {
    vi.unstubAllEnvs();
    process.exitCode = exitCode;
  });

  it('counts passed, failed and skipped tests', () => {
    vi.stubEnv('CI', '');
    const out = run([moduleOf('a.test.ts', ['passed', 'passed']), moduleOf('b.test.ts', ['failed', 'skipped'])]);
    expect(out).toContain('Tests: 2 passed, 1 failed, 1 skipped');
    expect(process.exitCode).toBe(exitCode);
  });

  it('in CI, a skipped test fails the run and names its file', () => {
    vi.stubEnv('CI', 'true');
    const out = run([moduleOf('a.test.ts', ['passed']), moduleOf('apps/console/e2e/x.e2e.test.ts', ['skipped', 'skipped'])]);
    expect(out).toContain('skipped in CI: apps/console/e2e/x.e2e.test.ts (2: test 0; test 1)');
    expect(process.exitCode).toBe(1);
  });

  it('in CI, a run with nothing skipped keeps its exit code', () => {
    vi.stubEnv('CI', 'true');
    run([moduleOf('a.test.ts', ['passed'])]);
    expect(process.exitCode).toBe(exitCode);
  });
});
