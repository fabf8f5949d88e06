import type { Page } from 'playwright-core';
import { launchChromium } from '../e2e/support/chromium';
import { serveDist } from './static-server';

const DAY_MS = 86_400_000;
const FROM = Date.parse('2026-03-01T00:00:00.000Z');

/**
 * A day of one truck's fixes every `everyS` seconds along the Northern Corridor (Mombasa towards
 * Malaba, a straight line with a little wobble: the shape does not matter to the drawing cost, the
 * count does), with a stop each hour.
 */
function day(everyS: number) {
  const n = Math.round(DAY_MS / 1000 / everyS);
  const [lon0, lat0, lon1, lat1] = [39.66, -4.05, 34.1, 0.63];
  return Array.from({ length: n }, (_, i) => {
    const f = i / (n - 1);
    const t = new Date(FROM + i * everyS * 1000).toISOString();
    const stopped = i % Math.round(3600 / everyS) < Math.round(300 / everyS);
    return {
      id: i + 1,
      deviceId: 1,
      uniqueId: 'bench1',
      protocol: 'gt06',
      fixTime: t,
      serverTime: t,
      valid: true,
      latitude: lat0 + (lat1 - lat0) * f + Math.sin(i / 40) * 0.002,
      longitude: lon0 + (lon1 - lon0) * f + Math.cos(i / 40) * 0.002,
      speed: stopped ? 0 : 35,
      course: 300,
      altitude: null,
      accuracy: null,
      satellites: 9,
      hdop: null,
      ignition: !stopped,
      odometer: null,
      power: null,
      battery: null,
      alarm: null,
      crcValid: true,
      rawFrameId: null,
      attributes: {},
      address: null,
    };
  });
}

interface Run {
  fixes: number;
  /** From navigation to the replay shown: the fix panel up and the map idle with the track drawn. */
  firstDrawMs: number;
  /** While playing at 1200×: frames per second, and the frame interval's mean and 95th percentile. */
  framesPerSecond: number;
  frameMsMean: number;
  frameMsP95: number;
  /** Main-thread busy share while playing (Chromium's TaskDuration over the window). */
  mainThreadShare: number;
  longTasks: number;
}

/** One replay of a day of `everyS`-second fixes: time to first draw, then `seconds` of playing. */
async function measure(page: Page, base: string, everyS: number, seconds: number): Promise<Run> {
  const fixes = day(everyS);
  const body = JSON.stringify(fixes);
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
      return route.fulfill({
        json: [
          {
            id: 1,
            name: 'Truck 0001',
            uniqueId: 'bench1',
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
          },
        ],
      });
    }
    if (path === '/api/positions') return route.fulfill({ body, contentType: 'application/json' });
    if (path === '/api/server/geocode') return route.fulfill({ body: '12 km NW of Voi, KE', contentType: 'text/plain' });
    return route.fulfill({ json: [] });
  });
  await page.routeWebSocket('**/api/socket', () => undefined);
  const to = new Date(FROM + DAY_MS).toISOString();
  const t0 = performance.now();
  await page.goto(`${base}/replay?device=1&from=${encodeURIComponent(new Date(FROM).toISOString())}&to=${encodeURIComponent(to)}`);
  await page.getByTestId('replay-fix').waitFor({ timeout: 120_000 });
  await page.locator('.map[data-idle="true"]').waitFor({ timeout: 120_000 });
  const firstDrawMs = Math.round(performance.now() - t0);

  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const taskMs = async () => ((await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0) * 1000;
  await page.locator('.replay-speed select').selectOption('1200');
  // a string, not a function: tsx would wrap a function's inner names in a helper the page lacks
  await page.evaluate(`(() => {
    const b = (window.__bench = { gaps: [], last: 0, longTasks: 0, stop: false });
    function tick(t) { if (b.last) b.gaps.push(t - b.last); b.last = t; if (!b.stop) requestAnimationFrame(tick); }
    requestAnimationFrame(tick);
    new PerformanceObserver((l) => { b.longTasks += l.getEntries().length; }).observe({ type: 'longtask' });
  })()`);
  await page.getByTestId('replay-play').click();
  const started = performance.now();
  const task0 = await taskMs();
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const task1 = await taskMs();
  const elapsed = (performance.now() - started) / 1000;
  const bench = await page.evaluate<{ gaps: number[]; longTasks: number }>('(window.__bench.stop = true, window.__bench)');
  await cdp.detach();
  const gaps = [...bench.gaps].sort((a, b) => a - b);
  const round = (v: number, d = 1) => Math.round(v * 10 ** d) / 10 ** d;
  return {
    fixes: fixes.length,
    firstDrawMs,
    framesPerSecond: round(gaps.length / elapsed),
    frameMsMean: round(gaps.reduce((a, b) => a + b, 0) / Math.max(1, gaps.length)),
    frameMsP95: round(gaps[Math.floor(gaps.length * 0.95)] ?? 0),
    mainThreadShare: round((task1 - task0) / 1000 / elapsed, 3),
    longTasks: bench.longTasks,
  };
}

/**
 * Replay of a day of 10 s fixes (8,640) beside a day of 100 s fixes (864) in the same run: time to
 * first draw and frames while playing at 1200×, in headless Chromium (software WebGL here, so frame
 * rates are a floor; compare the two sizes' ratio, taken under the same load).
 */
export default async function run(): Promise<Record<string, number | string>> {
  const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
  const browser = await launchChromium();
  const site = await serveDist();
  const one = async (everyS: number): Promise<Run> => {
    const context = await browser.newContext({ viewport: { width: 1366, height: 850 } });
    await context.addInitScript("localStorage.setItem('corridor.session', '1')"); // the console's signed-in hint (session/session-hint.ts)
    try {
      return await measure(await context.newPage(), site.url, everyS, SECONDS);
    } finally {
      await context.close();
    }
  };
  try {
    const out: Record<string, number | string> = { seconds: SECONDS, speed: '1200x', renderer: 'headless Chromium, software WebGL' };
    for (const everyS of [100, 10]) {
      const r = await one(everyS);
      for (const [k, v] of Object.entries(r)) if (k !== 'fixes') out[`f${r.fixes}_${k}`] = v;
    }
    const ratio = (a: string, b: string) => Math.round(((out[a] as number) / (out[b] as number)) * 100) / 100;
    out.firstDrawRatio8640to864 = ratio('f8640_firstDrawMs', 'f864_firstDrawMs');
    out.frameMsRatio8640to864 = ratio('f8640_frameMsMean', 'f864_frameMsMean');
    return out;
  } finally {
    await site.close();
    await browser.close();
  }
}
