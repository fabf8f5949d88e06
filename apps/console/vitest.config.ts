import { defineProject } from 'vitest/config';
import react from '@vitejs/plugin-react';

/** Component tests: logic that lives in the browser, rendered with testing-library in happy-dom. */
export default defineProject({
  plugins: [react()],
  test: {
    name: 'console',
    root: import.meta.dirname,
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    pool: 'forks',
    testTimeout: 30000,
  },
});
