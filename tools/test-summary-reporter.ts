import type { Reporter, TestModule } from 'vitest/node';

/** Prints one plain closing line, "Tests: N passed, N failed", that any CI log reader understands. */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const m of modules) {
      let failedHere = 0;
      for (const t of m.children.allTests()) {
        const state = t.result().state;
        if (state === 'passed') passed++;
        else if (state === 'failed') failedHere++;
        else skipped++;
      }
      // a file that failed to load, or whose beforeAll/afterAll failed (its tests then count as skipped)
      failed += m.state() === 'failed' && failedHere === 0 ? 1 : failedHere;
    }
    process.stdout.write(`\nTests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`);
    // in CI nothing may skip quietly: a suite whose real part is missing fails there, and a file
    // picked up by the wrong project (its tests skipped for want of that project's setup) fails too
    if (process.env.CI === 'true' && skipped > 0) {
      for (const m of modules) {
        const names = [...m.children.allTests()].filter((t) => t.result().state === 'skipped').map((t) => t.fullName);
        if (names.length) process.stdout.write(`skipped in CI: ${m.moduleId} (${names.length}: ${names.slice(0, 3).join('; ')})\n`);
      }
      process.stdout.write(`${skipped} tests skipped in CI (CI=true), where a skipped test is a failure\n`);
      process.exitCode = 1;
    }
  }
}
