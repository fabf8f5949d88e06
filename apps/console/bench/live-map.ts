import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { launchChromium } from '../e2e/support/chromium';
import { serveDist } from './static-server';

/** Trucks spread over the corridor region (East Africa), each drifting a little per fix. */
function fleet(n: number) {
  const devices = Array.from({ length: n }, (_, i) => ({
    id: i + 1,
    name: `Truck ${String(i + 1).padStart(4, '0')}`,
    uniqueId: `bench${i + 1}`,
    status: 'online',
    disabled: false,
    lastUpdate: null,
    positionId: null,
    groupId: null,
    calendarId: null,
    companyId: null,
    phone: null,
    model: null,
    contact: null,
    category: 'truck',
    expirationTime: null,
    attributes: {},
  }));
  const start = devices.map((_, i) => [29.5 + ((i * 7919) % 1000) / 100, -8 + ((i * 104729) % 900) / 100] as const);
  return { devices, start };
}

let seq = 0;
const position = (deviceId: number, [lon, lat]: readonly [number, number], step: number) => {
  const now = new Date().toISOString();
  return {
    id: ++seq,
    deviceId,
    uniqueId: `bench${deviceId}`,
    protocol: 'osmand',
    fixTime: now,
    serverTime: now,
    valid: true,
    latitude: lat + step * 0.0005,
    longitude: lon + step * 0.0005,
    speed: deviceId % 5 === 0 ? 0 : 40,
    course: 45,
    altitude: null,
    accuracy: null,
    satellites: null,
    hdop: null,
    ignition: true,
    odometer: null,
    power: null,
    battery: null,
    alarm: null,
    crcValid: true,
    rawFrameId: null,
    attributes: {},
  };
};

interface Run {
  trucks: number;
  updatesPerSecond: number;
  framesPerSecond: number;
  mainThreadMsPerUpdate: number;
  mainThreadShare: number;
  longTasks: number;
  socketFrames: number;
}

/**
 * One measurement: the live map of `trucks` trucks (API answered in the browser, the socket a
 * synthetic one: every truck reports once per second, sent as ten socket frames a second of a
 * tenth of the fleet each), measured for `seconds` after the map has drawn every truck.
 * Frame rate from requestAnimationFrame in the page; main-thread time from Chromium's
 * TaskDuration (CDP Performance metrics) over the window, per socket frame.
 */
async function measure(page: Page, base: string, trucks: number, seconds: number, profileTo?: string): Promise<Run> {
  const { devices, start } = fleet(trucks);
  await page.unrouteAll();
  await page.route('**/api/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/api/session')
      return route.fulfill({
        json: {
          id: 1,
          name: 'Bench Dispatcher',
          email: 'bench@corridor.local',
          roles: ['dispatcher'],
          companyId: null,
          disabled: false,
          readonly: false,
          attributes: {},
        },
      });
    if (path === '/api/server') return route.fulfill({ json: { openIdEnabled: false, openIdForce: false } });
    if (path === '/api/devices') {
      const q = new URL(route.request().url()).searchParams;
      const offset = Number(q.get('offset') ?? 0);
      return route.fulfill({ json: devices.slice(offset, offset + Number(q.get('limit') ?? 100)) });
    }
    if (path === '/api/positions') return route.fulfill({ json: devices.map((d, i) => position(d.id, start[i]!, 0)) });
    return route.fulfill({ json: [] });
  });
  let socketFrames = 0;
  let feeding = false;
  let timer: ReturnType<typeof setInterval> | undefined;
  await page.routeWebSocket('**/api/socket', (ws) => {
    let step = 0;
    let slice = 0;
    timer = setInterval(() => {
      if (!feeding) return;
      const tenth = Math.ceil(trucks / 10);
      const from = slice * tenth;
      slice = (slice + 1) % 10;
      if (slice === 0) step++;
      ws.send(JSON.stringify({ positions: devices.slice(from, from + tenth).map((d, i) => position(d.id, start[from + i]!, step)) }));
      socketFrames++;
    }, 100);
  });
  await page.goto(`${base}/map`);
  await page.locator('.map[data-ready="true"]').waitFor({ timeout: 120_000 });
  // every truck is on the map (its label counts them; digits only, whatever the number format)
  await page.waitForFunction(
    `/\\d+/.exec((document.querySelector('.map')?.getAttribute('aria-label') ?? '').replace(/[,.\\s]/g, ''))?.[0] === '${trucks}'`,
    undefined,
    { timeout: 120_000 },
  );
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskMs = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  // a string, not a function: tsx would wrap a function's inner names in a helper the page lacks
  await page.evaluate(`(() => {
    const b = (window.__bench = { frames: 0, longTasks: 0, stop: false });
    function tick() { b.frames++; if (!b.stop) requestAnimationFrame(tick); }
    requestAnimationFrame(tick);
    new PerformanceObserver((l) => { b.longTasks += l.getEntries().length; }).observe({ type: 'longtask' });
  })()`);
  if (profileTo) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    await cdp.send('Profiler.start');
  }
  feeding = true;
  const framesBefore = socketFrames;
  const t0 = performance.now();
  const task0 = await taskMs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const task1 = await taskMs();
  const elapsed = (performance.now() - t0) / 1000;
  feeding = false;
  const sent = socketFrames - framesBefore;
  const bench = await page.evaluate<{ frames: number; longTasks: number }>('(window.__bench.stop = true, window.__bench)');
  if (timer) clearInterval(timer);
  if (profileTo) await writeProfile(cdp, profileTo);
  await cdp.detach();
  return {
    trucks,
    updatesPerSecond: Math.round((sent * Math.ceil(trucks / 10)) / elapsed),
    framesPerSecond: Math.round((bench.frames / elapsed) * 10) / 10,
    mainThreadMsPerUpdate: Math.round(((task1 - task0) / Math.max(1, sent)) * 100) / 100,
    mainThreadShare: Math.round(((task1 - task0) / 1000 / elapsed) * 1000) / 1000,
    longTasks: bench.longTasks,
    socketFrames: sent,
  };
}

/**
 * Where the main thread's time went: the CPU profile (Chromium's sampling profiler) written to
 * `file` (open it in DevTools' Performance panel) and its heaviest functions by self time printed.
 * Build the console unminified for readable names: `vite build --minify false --outDir <dir>`.
 */
async function writeProfile(cdp: CDPSession, file: string): Promise<void> {
  const { profile } = await cdp.send('Profiler.stop');
  writeFileSync(file, JSON.stringify(profile));
  const self = new Map<string, number>();
  const dt = profile.timeDeltas ?? [];
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  (profile.samples ?? []).forEach((id, i) => {
    const f = byId.get(id)!.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  });
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  process.stdout.write(`  profile ${file}: top self time of ${Math.round(total)} ms\n`);
  for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
    process.stdout.write(`    ${ms.toFixed(0).padStart(7)} ms ${((ms / total) * 100).toFixed(1).padStart(5)} %  ${k}\n`);
}

/**
 * The dispatcher's live map with 2,000 trucks fed by a synthetic socket, beside 200 trucks in the
 * same run (compare the ratio; absolute figures depend on the machine and its load, recorded).
 * Headless Chromium draws WebGL in software (SwiftShader) here, so frame rates are a floor.
 *
 * BENCH_BASELINE_DIST: another build of the console (e.g. the commit before a change, built with
 * `vite build --outDir <dir>`), measured at 2,000 trucks in the same run, named by
 * BENCH_BASELINE_LABEL: a before/after under the same load. BENCH_PROFILE: a folder where the CPU
 * profile of each 2,000-truck window is written (and its top functions printed).
 */
export default async function run(): Promise<Record<string, number | string>> {
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
  const baseline = process.env.BENCH_BASELINE_DIST;
  const profileDir = process.env.BENCH_PROFILE;
  const browser = await launchChromium();
  const one = async (dist: string | undefined, trucks: number, profileTo?: string): Promise<Run> => {
    const site = await serveDist(dist);
    const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
    await context.addInitScript("localStorage.setItem('corridor.session', '1')"); // the console's signed-in hint (session/session-hint.ts)
    try {
      return await measure(await context.newPage(), site.url, trucks, SECONDS, profileTo);
    } finally {
      await context.close();
      await site.close();
    }
  };
  const profile = (name: string) => (profileDir ? join(profileDir, `live-map-${name}.cpuprofile`) : undefined);
  try {
    const out: Record<string, number | string> = { seconds: SECONDS, renderer: 'headless Chromium, software WebGL' };
    if (baseline) {
      out.baseline = process.env.BENCH_BASELINE_LABEL ?? baseline;
      const r = await one(baseline, 2000, profile('baseline'));
      for (const [k, v] of Object.entries(r)) if (k !== 'trucks') out[`baseline_t2000_${k}`] = v;
    }
    for (const trucks of [200, 2000]) {
      const r = await one(undefined, trucks, trucks === 2000 ? profile('current') : undefined);
      for (const [k, v] of Object.entries(r)) if (k !== 'trucks') out[`t${trucks}_${k}`] = v;
    }
    const ratio = (a: string, b: string) => Math.round(((out[a] as number) / (out[b] as number)) * 100) / 100;
    out.fpsRatio2000to200 = ratio('t2000_framesPerSecond', 't200_framesPerSecond');
    out.msPerFrameRatio2000to200 = ratio('t2000_mainThreadMsPerUpdate', 't200_mainThreadMsPerUpdate');
    if (baseline) {
      out.fpsRatioCurrentToBaseline2000 = ratio('t2000_framesPerSecond', 'baseline_t2000_framesPerSecond');
      out.msPerUpdateRatioCurrentToBaseline2000 = ratio('t2000_mainThreadMsPerUpdate', 'baseline_t2000_mainThreadMsPerUpdate');
    }
    return out;
  } finally {
    await browser.close();
  }
}
