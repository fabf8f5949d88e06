import { defineProject } from 'vitest/config';

/**
 * Browser tests: Debian's Chromium driven by playwright-core against the whole stack on its
 * embedded defaults, started once for the run (globalSetup) on ephemeral ports, once per browser
 * lane (CONSOLE_E2E_LANES, by default one per two cores). Files run one after another on each lane's stack (each takes
 * its turn on a free lane first: e2e/support/browser-turn.ts), in the same worker pool
 * as the other projects' files, among which tools/test-sequencer.ts spreads them: with
 * `fileParallelism: false` vitest ran them in a group of their own after every other file, all of
 * them on the run's critical path (CI 2026-11-29 04:33: 334 s of its 1,080 s).
 */
export default defineProject({
  test: {
    name: 'console-browser',
    root: import.meta.dirname,
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    setupFiles: ['./e2e/support/browser-turn.ts', './e2e/support/history-ready.ts'],
    pool: 'forks',
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
