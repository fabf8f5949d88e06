import type { Page } from 'playwright-core';
import { launchChromium } from '../e2e/support/chromium';
import { serveDist } from './static-server';

/** Trucks spread over the corridor region (East Africa), each drifting a little per fix. */
function fleet(n: number) {
  const devices = Array.from({ length: n }, (_, i) => ({
    id: i + 1, name: `Truck ${String(i + 1).padStart(4, '0')}`, uniqueId: `bench${i + 1}`, status: 'online', disabled: false,
    lastUpdate: null, positionId: null, groupId: null, calendarId: null, companyId: null, phone: null, model: null, contact: null,
    category: 'truck', expirationTime: null, attributes: {},
  }));
  const start = devices.map((_, i) => [29.5 + ((i * 7919) % 1000) / 100, -8 + ((i * 104729) % 900) / 100] as const);
  return { devices, start };
}

let seq = 0;
const position = (deviceId: number, [lon, lat]: readonly [number, number], step: number) => {
  const now = new Date().toISOString();
  return {
    id: ++seq, deviceId, uniqueId: `bench${deviceId}`, protocol: 'osmand', fixTime: now, serverTime: now, valid: true,
    latitude: lat + step * 0.0005, longitude: lon + step * 0.0005, speed: deviceId % 5 === 0 ? 0 : 40, course: 45, altitude: null,
    accuracy: null, satellites: null, hdop: null, ignition: true, odometer: null, power: null, battery: null, alarm: null,
    crcValid: true, rawFrameId: null, attributes: {},
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
async function measure(page: Page, base: string, trucks: number, seconds: number): Promise<Run> {
  const { devices, start } = fleet(trucks);
  await page.unrouteAll();
  await page.route('**/api/**', (route) => {
    const path = new URL(route.request().url()).pathname;
    if (path === '/api/session') return route.fulfill({ json: { id: 1, name: 'Bench Dispatcher', email: 'bench@corridor.local', roles: ['dispatcher'], companyId: null, disabled: false, readonly: false, attributes: {} } });
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
  await page.waitForFunction(`/\\d+/.exec((document.querySelector('.map')?.getAttribute('aria-label') ?? '').replace(/[,.\\s]/g, ''))?.[0] === '${trucks}'`, undefined, { timeout: 120_000 });
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
 * The dispatcher's live map with 2,000 trucks fed by a synthetic socket, beside 200 trucks in the
 * same run (compare the ratio; absolute figures depend on the machine and its load, recorded).
 * Headless Chromium draws WebGL in software (SwiftShader) here, so frame rates are a floor.
 */
export default async function run(): Promise<Record<string, number | string>> {
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 15);
  const site = await serveDist();
  const browser = await launchChromium();
  try {
    const out: Record<string, number | string> = { seconds: SECONDS, renderer: 'headless Chromium, software WebGL' };
    for (const trucks of [200, 2000]) {
      const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
      await context.addInitScript("localStorage.setItem('corridor.session', '1')"); // the console's signed-in hint (session/session-hint.ts)
      const page = await context.newPage();
      const r = await measure(page, site.url, trucks, SECONDS);
      for (const [k, v] of Object.entries(r)) if (k !== 'trucks') out[`t${trucks}_${k}`] = v;
      await context.close();
    }
    out.fpsRatio2000to200 = Math.round(((out.t2000_framesPerSecond as number) / (out.t200_framesPerSecond as number)) * 100) / 100;
    out.msPerFrameRatio2000to200 = Math.round(((out.t2000_mainThreadMsPerUpdate as number) / (out.t200_mainThreadMsPerUpdate as number)) * 100) / 100;
    return out;
  } finally {
    await browser.close();
    await site.close();
  }
}
