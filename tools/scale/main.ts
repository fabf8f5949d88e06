import { parseArgs } from 'node:util';
import { startScaleCluster } from './cluster';
import { formatReport, runScenario } from './scenario';

/**
 * `pnpm scale` — the multi-instance run on this machine (issue 16): two ingest, two journey, two
 * geofence, one ops-api and two gateway processes on a Kafka broker of its own (positions.v1 at 12
 * partitions), PostgreSQL and Redis from the environment (eval "$(tools/dev-services env)"), one
 * shared analytics store; GT06 trackers on both ingest instances; ingest-2 and journey-2 SIGKILLed
 * mid-run and started again; a socket on gateway-2 signed in through gateway-1. Prints the counts; exits 1 on any loss or duplicate.
 *
 *   pnpm scale [--trucks 24] [--fixes 48] [--detour-every 2] [--no-kill] [--keep-logs]
 */
const { values } = parseArgs({
  options: {
    trucks: { type: 'string', default: '24' },
    fixes: { type: 'string', default: '48' },
    'detour-every': { type: 'string', default: '2' },
    'no-kill': { type: 'boolean', default: false },
    'keep-logs': { type: 'boolean', default: false },
  },
});
const log = (m: string): void => void process.stdout.write(`[scale ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const started = Date.now();
log('starting the broker, the analytics store and 9 service processes');
const cluster = await startScaleCluster({ instances: { ingest: 2, journey: 2, geofence: 2, gateway: 2 } });
log(`cluster up in ${((Date.now() - started) / 1000).toFixed(0)} s (logs in ${cluster.dir}/logs)`);
let failed = true;
try {
  const report = await runScenario(cluster, {
    trucks: Number(values.trucks),
    fixes: Number(values.fixes),
    detourEvery: Number(values['detour-every']),
    kill: values['no-kill'] ? [] : ['ingest-2', 'journey-2'],
    log,
  });
  process.stdout.write(formatReport(report) + '\n');
  failed = report.problems.length > 0;
} catch (err) {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
} finally {
  const keepLogs = values['keep-logs'] || failed;
  await cluster.close({ keepLogs });
  if (keepLogs) log(`logs kept in ${cluster.dir}/logs`);
}
process.exit(failed ? 1 : 0);
