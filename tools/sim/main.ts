/** Truck simulator CLI: `pnpm sim --trucks 20 --url http://127.0.0.1:5055 --interval 5000` runs until Ctrl-C. */
import { parseArgs } from 'node:util';
import { DEFAULT_TRUCKS, startSimulator } from './simulator';

const { values } = parseArgs({
  options: {
    trucks: { type: 'string', default: String(DEFAULT_TRUCKS) },
    url: { type: 'string', default: 'http://127.0.0.1:5055' },
    interval: { type: 'string', default: '5000' },
    'time-scale': { type: 'string', default: '1' },
    seed: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log('usage: pnpm sim [--trucks N] [--url http://host:port] [--interval ms] [--time-scale x] [--seed n]');
  process.exit(0);
}

function positive(name: string, raw: string, integer: boolean): number {
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n))) {
    console.error(`--${name} must be a positive ${integer ? 'integer' : 'number'}, got ${raw}`);
    process.exit(2);
  }
  return n;
}

const sim = startSimulator({
  trucks: positive('trucks', values.trucks, true),
  ingestUrl: values.url,
  intervalMs: positive('interval', values.interval, true),
  timeScale: positive('time-scale', values['time-scale'], false),
  ...(values.seed !== undefined ? { seed: positive('seed', values.seed, true) } : {}),
  log: (msg) => console.log(msg),
});

const report = setInterval(() => {
  const s = sim.stats();
  console.log(`sim: sent ${s.sent}, failed ${s.failed}`);
}, 60_000);

let stopping = false;
async function shutdown(): Promise<void> {
  if (stopping) process.exit(1); // second Ctrl-C
  stopping = true;
  clearInterval(report);
  await sim.stop();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown());
process.on('SIGTERM', () => void shutdown());
