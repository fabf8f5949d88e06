/**
 * Truck simulator CLI: `pnpm sim --trucks 20 --url http://127.0.0.1:5055 --interval 5000` runs until
 * Ctrl-C. `--protocols osmand,gt06,teltonika` has the trucks speak those protocols round-robin
 * (GT06 and Teltonika over TCP to --tcp-host on ports 5023 and 5027 unless --gt06-port/--teltonika-port).
 */
import { parseArgs } from 'node:util';
import { DEFAULT_TRUCKS, SIM_PROTOCOLS, startSimulator, type SimProtocol } from './simulator';

const { values } = parseArgs({
  options: {
    trucks: { type: 'string', default: String(DEFAULT_TRUCKS) },
    url: { type: 'string', default: 'http://127.0.0.1:5055' },
    interval: { type: 'string', default: '5000' },
    'time-scale': { type: 'string', default: '1' },
    seed: { type: 'string' },
    protocols: { type: 'string', default: 'osmand' },
    'tcp-host': { type: 'string', default: '127.0.0.1' },
    'gt06-port': { type: 'string', default: '5023' },
    'teltonika-port': { type: 'string', default: '5027' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

if (values.help) {
  console.log(
    'usage: pnpm sim [--trucks N] [--url http://host:port] [--interval ms] [--time-scale x] [--seed n]\n' +
      '                [--protocols osmand,gt06,teltonika] [--tcp-host host] [--gt06-port p] [--teltonika-port p]',
  );
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

const protocols = values.protocols
  .split(',')
  .map((p) => p.trim())
  .filter(Boolean);
const unknown = protocols.filter((p) => !(SIM_PROTOCOLS as readonly string[]).includes(p));
if (!protocols.length || unknown.length) {
  console.error(`--protocols takes a comma-separated list of ${SIM_PROTOCOLS.join(', ')}; got ${values.protocols}`);
  process.exit(2);
}

const sim = startSimulator({
  protocols: protocols as SimProtocol[],
  tcpHost: values['tcp-host'],
  tcpPorts: {
    gt06: positive('gt06-port', values['gt06-port'], true),
    teltonika: positive('teltonika-port', values['teltonika-port'], true),
  },
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
