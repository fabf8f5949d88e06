import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'packages/*/test/**/*.test.ts', 'services/*/src/**/*.test.ts', 'services/*/test/**/*.test.ts', 'tools/**/*.test.ts', 'deploy/**/*.test.ts'],
    exclude: ['**/node_modules/**', '.data/**'],
    pool: 'forks',
    testTimeout: 30000,
    hookTimeout: 60000,
    reporters: ['default', './tools/test-summary-reporter.ts'],
  },
});
