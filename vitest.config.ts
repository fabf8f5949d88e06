import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    pool: 'forks',
    testTimeout: 30000,
    hookTimeout: 60000,
    reporters: ['default', './tools/test-summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'platform',
          include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tools/**/*.test.ts', 'deploy/**/*.test.ts'],
          exclude: ['**/node_modules/**', '.data/**'],
        },
      },
      // the web console: component tests (happy-dom) and browser tests (Chromium against the stack)
      'apps/console/vitest.config.ts',
      'apps/console/vitest.e2e.config.ts',
    ],
  },
});
