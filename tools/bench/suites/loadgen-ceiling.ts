/**
 * What `pnpm bench traccar`'s load generator can offer from this machine (issue 28: "the load
 * generator runs in several processes so that it can offer at least 30,000 fixes/s"). The same
 * generator (traccar/load-fleet.ts: TRACKERS GT06 trackers, WINDOW unacknowledged each, in
 * PROCESSES child processes) against a server that only acks (traccar/gt06-acker.ts, ACKERS
 * processes on one port): its saturated acked fixes/s with 1 load process and with PROCESSES, in
 * alternated rounds, and the CPU-seconds the load processes and the ackers spent. On two cores the
 * generator and the acker share the CPU, so the figure is a floor of what the generator alone can do.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { freePort } from '@corridor/platform/testing/free-port';
import { load1m } from '../parts';
import { median, round } from '../stats';
import { LoadFleet } from '../traccar/load-fleet';
import { cpuSecondsOf } from '../traccar/systems';

const TRACKERS = Number(process.env.TRACKERS ?? 200);
const PROCESSES = Number(process.env.PROCESSES ?? 4);
const ACKERS = Number(process.env.ACKERS ?? 2);
const WINDOW = 8;
const SECONDS = Number(process.env.LOADGEN_SECONDS ?? 10);
const ROUNDS = Number(process.env.ROUNDS ?? 3);

async function startAckers(port: number): Promise<ChildProcess[]> {
  const script = fileURLToPath(new URL('../traccar/gt06-acker.ts', import.meta.url));
  return Promise.all(
    Array.from({ length: ACKERS }, async () => {
      const proc = spawn(process.execPath, ['--import', 'tsx', script], {
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        createInterface({ input: proc.stdout! }).once('line', () => resolve());
        proc.once('exit', (code) => reject(new Error(`gt06-acker exited with ${code}`)));
      });
      return proc;
    }),
  );
}

const cpuOf = (pids: number[]): number => pids.reduce((a, p) => a + cpuSecondsOf(p), 0);

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {
    setup: `${TRACKERS} GT06 trackers, ${WINDOW} unacknowledged each, ${SECONDS} s closed loop after a warm-up; ${ACKERS} ack-only server processes on one port (SO_REUSEPORT)`,
    load_start: load1m(),
  };
  const port = await freePort();
  const ackers = await startAckers(port);
  const rates: Record<string, number[]> = {};
  try {
    for (let r = 0; r < ROUNDS; r++) {
      for (const processes of r % 2 ? [PROCESSES, 1] : [1, PROCESSES]) {
        const fleet = new LoadFleet({
          port,
          first: r * 1000 + processes * 10_000,
          count: TRACKERS,
          processes,
          t0: Date.UTC(2026, 0, 1),
          spareFrom: 500_000,
          spares: 1,
        });
        try {
          await fleet.ready();
          await fleet.run({ cmd: 'closed', seconds: 3, window: WINDOW });
          const key = `r${r + 1}.processes_${processes}`;
          out[`${key}.load_start`] = load1m();
          const gen0 = cpuOf(fleet.pids());
          const ack0 = cpuOf(ackers.map((a) => a.pid!));
          const res = await fleet.run({ cmd: 'closed', seconds: SECONDS, window: WINDOW });
          const perS = Math.round(res.acked / res.seconds);
          (rates[processes] ??= []).push(perS);
          out[`${key}.acked_per_s`] = perS;
          out[`${key}.ack_p99_ms`] = res.p99Ms;
          out[`${key}.cpu_s_load_processes`] = round(cpuOf(fleet.pids()) - gen0);
          out[`${key}.cpu_s_ackers`] = round(cpuOf(ackers.map((a) => a.pid!)) - ack0);
          out[`${key}.load_end`] = load1m();
        } finally {
          await fleet.stop();
        }
      }
    }
  } finally {
    for (const a of ackers) a.kill('SIGTERM');
  }
  for (const [p, list] of Object.entries(rates)) out[`processes_${p}.acked_per_s_median`] = median(list);
  if (rates[1] && rates[PROCESSES]) out[`ratio_processes_${PROCESSES}_to_1`] = round(median(rates[PROCESSES]) / median(rates[1]));
  out.load_end = load1m();
  return out;
}
