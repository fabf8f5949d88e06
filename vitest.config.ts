import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import RunLayoutSequencer from './tools/test-sequencer.js';

const PLATFORM_FILES = [
  'packages/*/src/**/*.test.ts',
  'packages/*/test/**/*.test.ts',
  'services/*/src/**/*.test.ts',
  'services/*/test/**/*.test.ts',
  'tools/**/*.test.ts',
  'deploy/**/*.test.ts',
];
const EXCLUDED = ['**/node_modules/**', '.data/**'];
/**
 * Platform files that run each in a fork of its own (vitest's default isolation): the whole-system
 * files (*.e2e: stacks, brokers and child processes of their own; their import is a small part of
 * their time), and files that fail after other files in the same worker (found by running every
 * platform file shared, 2026-11-29), each with the reason.
 */
const OWN_PROCESS = [
  '**/*.e2e.test.ts',
  // chDB binds one data directory per process (adapters/clickhouse-chdb.ts): these open one on
  // disk, which fails once an earlier file's tests opened the shared in-memory one
  'tools/delivery/production-layout.test.ts',
  'packages/platform/test/embedded-memory-settings.test.ts',
  // the threads' metrics, aggregated with this process's registry, missed the threads' counters
  // after other files had run in the worker (a 25 s wait timed out)
  'services/ingest/test/ingest-threads.test.ts',
  // two tests (100,000 rows streamed) timed out at 30 s in a shared worker, after the files before
  // it had filled the worker's in-memory chDB; 10.5 s and 8.2 s alone at the same load (19-30)
  'services/ops-api/src/reports/streaming.test.ts',
];

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
    // the files that need a fork of their own first, then those that share a worker, with the
    // browser files spread among them, each in its turn on one of the browser lanes' stacks (one pool for every project)
    sequence: { sequencer: RunLayoutSequencer },
    projects: [
      // Most files share a worker (`isolate: false`): a worker runs one file after another without a
      // fresh fork, so the module graph a file imports (the platform barrel: fastify, PGlite, Kafka,
      // pino, zod...) is evaluated once per worker instead of once per file (CI 2026-11-29: 569 s of
      // import summed over 343 files, 1.7 s a file). Module state then outlives a file: a file that
      // needs a fresh process goes to the next project
      {
        extends: true,
        test: {
          name: 'platform',
          include: PLATFORM_FILES,
          exclude: [...EXCLUDED, ...OWN_PROCESS],
          isolate: false,
        },
      },
      {
        extends: true,
        // apps/ excluded: the console's browser files (*.e2e) belong to its browser project alone; here
        // they would run a second time without Chromium, every test skipped (CI of 10:01, 54 tests)
        test: { name: 'platform-own-process', include: OWN_PROCESS, exclude: [...EXCLUDED, 'apps/**'] },
      },
      // the web console: component tests (happy-dom) and browser tests (Chromium against the stack)
      'apps/console/vitest.config.ts',
      'apps/console/vitest.e2e.config.ts',
    ],
  },
});
