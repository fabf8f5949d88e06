import { afterEach } from 'vitest';
import { cleanup } from '@testing-library/react';
import '../i18n/i18n';

// each test renders into a fresh document
afterEach(() => cleanup());
