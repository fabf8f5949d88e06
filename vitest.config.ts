import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import SpreadTurnsSequencer from './tools/test-sequencer.js';

export default defineConfig({
  test: {
    pool: 'forks',
    // two test files at a time even on two cores (vitest's default is cores - 1): most of the long
    // files wait on brokers, child processes and browsers, not on the CPU. CI's test step on a
    // 2-core machine: 1,091 s with one worker, 657 s with two (2026-11-28, same tests, all passed)
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 30000,
    hookTimeout: 60000,
    reporters: ['default', './tools/test-summary-reporter.ts'],
    // the browser files spread among the others, each in its turn on their shared stack (one pool for every project)
    sequence: { sequencer: SpreadTurnsSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'platform',
          include: [
            'packages/*/src/**/*.test.ts',
            'packages/*/test/**/*.test.ts',
            'services/*/src/**/*.test.ts',
            'services/*/test/**/*.test.ts',
            'tools/**/*.test.ts',
            'deploy/**/*.test.ts',
          ],
          exclude: ['**/node_modules/**', '.data/**'],
        },
      },
      // the web console: component tests (happy-dom) and browser tests (Chromium against the stack)
      'apps/console/vitest.config.ts',
      'apps/console/vitest.e2e.config.ts',
    ],
  },
});
