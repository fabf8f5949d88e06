import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { launchChromium } from '../e2e/support/chromium';
import { DIST, serveDist } from './static-server';

/** Bytes of a built file as the gateway sends it gzipped: its precompressed .gz, else gzip level 9. */
const gzipped = (file: string): number =>
  existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : gzipSync(readFileSync(file), { level: 9 }).length;

/**
 * JavaScript the sign-in route loads, gzipped: the built console opened signed out in Chromium
 * (the API answered as for a visitor without a session), every script the page fetched until the
 * sign-in form shows, sized as the gateway serves it. Against the budget of 300 KB and against all
 * of the console's JavaScript (how much code splitting keeps off the first screen).
 */
export default async function run(): Promise<Record<string, number | string>> {
  const site = await serveDist();
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.route('**/api/**', (route) =>
      route.request().url().endsWith('/api/server')
        ? route.fulfill({ json: { openIdEnabled: false, openIdForce: false } })
        : route.fulfill({ status: 404, json: { error: { code: 'NOT_FOUND', message: 'no session' } } }),
    );
    const scripts = new Set<string>();
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.add(new URL(r.url()).pathname);
    });
    await page.goto(`${site.url}/`);
    await page.getByLabel('Email or login').waitFor();
    const files = [...scripts].map((p) => join(DIST, p));
    const signInGz = files.reduce((s, f) => s + gzipped(f), 0);
    const signInRaw = files.reduce((s, f) => s + statSync(f).size, 0);
    const all = readdirSync(join(DIST, 'assets'))
      .filter((f) => f.endsWith('.js'))
      .map((f) => join(DIST, 'assets', f));
    const allGz = all.reduce((s, f) => s + gzipped(f), 0);
    return {
      signInScripts: files.length,
      signInJsGzippedKB: Math.round(signInGz / 102.4) / 10,
      signInJsRawKB: Math.round(signInRaw / 102.4) / 10,
      budgetKB: 300,
      withinBudget: signInGz <= 300 * 1024 ? 'yes' : 'no',
      allJsFiles: all.length,
      allJsGzippedKB: Math.round(allGz / 102.4) / 10,
      signInShareOfAllJs: Math.round((signInGz / allGz) * 1000) / 1000,
    };
  } finally {
    await browser.close();
    await site.close();
  }
}
