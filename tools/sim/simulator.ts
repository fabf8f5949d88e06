import { planFleet, simDeviceIds, DEFAULT_TRUCKS } from './fleet';
import { OsmAndSender } from './osmand-client';
import { seededRandom } from './random';
import { Truck } from './truck';

export { simDeviceIds, DEFAULT_TRUCKS };

export interface SimulatorOptions {
  trucks: number;
  /** OsmAnd HTTP endpoint of ingest, e.g. http://127.0.0.1:5055 */
  ingestUrl: string;
  /** Real time between two reports of one truck, ms. */
  intervalMs: number;
  /** Simulated seconds per real second (1 = real time). */
  timeScale?: number;
  deviceIds?: string[];
  log?: (msg: string) => void;
  /** Seed of the fleet layout and GPS noise; the same seed replays the same fleet. */
  seed?: number;
}

export interface SimulatorHandle {
  stop(): Promise<void>;
  stats(): { sent: number; failed: number };
}

const MAX_LOGGED_FAILURES = 5;

/** Starts N trucks reporting over OsmAnd HTTP, each on its own timer staggered across the interval. */
export function startSimulator(opts: SimulatorOptions): SimulatorHandle {
  const { trucks: count, ingestUrl, intervalMs } = opts;
  const timeScale = opts.timeScale ?? 1;
  const log = opts.log ?? (() => undefined);
  if (!(intervalMs > 0)) throw new RangeError('intervalMs must be positive');
  if (!(timeScale > 0)) throw new RangeError('timeScale must be positive');

  const random = seededRandom(opts.seed ?? 20240501);
  const plans = planFleet({ trucks: count, random, deviceIds: opts.deviceIds ?? simDeviceIds(count) });
  let failuresLogged = 0;
  const sender = new OsmAndSender({
    url: ingestUrl,
    onFailure: (fix, reason) => {
      if (failuresLogged++ < MAX_LOGGED_FAILURES) log(`sim: fix from ${fix.deviceId} not delivered: ${reason}`);
      else if (failuresLogged % 100 === 0) log(`sim: ${sender.stats.failed} fixes not delivered so far (last: ${reason})`);
    },
  });
  const trucks = plans.map((plan) => new Truck(plan, { sender, random }));
  const abort = new AbortController();
  const inFlight = new Set<Promise<void>>();
  const timers: NodeJS.Timeout[] = [];
  let stopped = false;

  trucks.forEach((truck, i) => {
    let last = performance.now();
    let busy = false;
    const tick = (): void => {
      const now = performance.now();
      truck.advance(((now - last) / 1000) * timeScale);
      last = now;
      if (busy || stopped) return; // the previous report is still retrying; skip this one
      busy = true;
      const p = truck.report(new Date(), abort.signal).then(() => {
        busy = false;
        inFlight.delete(p);
      });
      inFlight.add(p);
    };
    const offset = Math.floor((i * intervalMs) / Math.max(trucks.length, 1));
    timers.push(
      setTimeout(() => {
        if (stopped) return;
        tick();
        timers.push(setInterval(tick, intervalMs));
      }, offset),
    );
  });

  log(`sim: ${trucks.length} trucks reporting to ${ingestUrl} every ${intervalMs} ms (time x${timeScale})`);

  return {
    async stop() {
      if (stopped) return;
      stopped = true;
      for (const t of timers) clearTimeout(t);
      abort.abort();
      await Promise.all([...inFlight]);
      log(`sim: stopped; sent ${sender.stats.sent}, failed ${sender.stats.failed}`);
    },
    stats: () => ({ sent: sender.stats.sent, failed: sender.stats.failed }),
  };
}
