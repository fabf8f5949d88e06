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
    // one worker runs file after file, React, i18next and happy-dom imported once (55 files alone on
    // two workers: 88 s with a fork each, 22 s shared); setup.ts cleans the document, the stubbed
    // globals and the language after every test
    isolate: false,
    testTimeout: 30000,
  },
});
