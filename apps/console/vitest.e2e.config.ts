import { defineProject } from 'vitest/config';

/**
 * Browser tests: Debian's Chromium driven by playwright-core against the whole stack on its
 * embedded defaults, started once for the run (globalSetup) on ephemeral ports. Files run one
 * after another: each drives one browser, and the machine has two cores.
 */
export default defineProject({
  test: {
    name: 'console-browser',
    root: import.meta.dirname,
    environment: 'node',
    include: ['e2e/**/*.e2e.test.ts'],
    globalSetup: ['./e2e/support/global-setup.ts'],
    setupFiles: ['./e2e/support/history-ready.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
