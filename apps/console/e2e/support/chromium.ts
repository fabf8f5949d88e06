import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium package (Playwright cannot download its own browsers here). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags for a headless run on a machine without a GPU or outside network. */
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export const chromiumAvailable = (): boolean => existsSync(CHROMIUM);

/** A new browser with a fresh profile (Playwright gives each launch its own empty user-data-dir); `args` are added to CHROMIUM_ARGS. */
export function launchChromium(args: readonly string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...args], headless: true });
}
