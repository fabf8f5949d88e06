import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { i18n } from '../i18n/i18n';

// findBy… and waitFor wait for what the user would see; on a loaded machine a screen may take more than
// testing-library's 1 s default to settle (a passing test waits no longer for it)
configure({ asyncUtilTimeout: 5000 });

// each test renders into a fresh document, with the real fetch and in English (a test may change either)
afterEach(async () => {
  cleanup();
  vi.unstubAllGlobals();
  await i18n.changeLanguage('en');
});
