/**
 * The multi-instance run (tools/scale) as a benchmark: the same trucks and journeys with one
 * instance of each consumer service (ingest, journey, geofence) and then with two, each a process of
 * its own, on a Kafka broker of the run's own (positions.v1 at 12 partitions), PostgreSQL and Redis
 * from the environment, one analytics store (chDB behind the ClickHouse HTTP interface); no kills.
 * Figures per layout: acknowledged fixes per second while sending, fixes per second until every
 * consumer group caught up, and fix → flag latency (the fix leaving its tracker to the
 * journeyFlagOpened event stored). Ratios two/one within the same run. The trackers wait for each
 * acknowledgement, so sending is paced by the acknowledgement round trip as much as by capacity;
 * on a shared 2-core machine two instances add processes to the same cores: read the ratio as what
 * the extra instances cost or gain here, not as cluster scaling. Needs DATABASE_URL and REDIS_URL
 * (eval "$(tools/dev-services env)") and the Kafka jars (tools/dev-services).
 */
import { startScaleCluster } from '../../scale/cluster';
import { runScenario, type ScaleReport } from '../../scale/scenario';
import { quantile, round } from '../stats';

const TRUCKS = Number(process.env.SCALE_BENCH_TRUCKS ?? 24);
const FIXES = 36;

async function layout(n: number): Promise<ScaleReport> {
  const cluster = await startScaleCluster({ instances: { ingest: n, journey: n, geofence: n } });
  try {
    const report = await runScenario(cluster, {
      trucks: TRUCKS,
      fixes: FIXES,
      detourEvery: 2,
      kill: [],
      log: (m) => process.stdout.write(`  [${n}x] ${m}\n`),
    });
    if (report.problems.length) throw new Error(`${n} instance(s): ${report.problems.join('; ')}`);
    return report;
  } finally {
    await cluster.close();
  }
}

export default async function run(): Promise<Record<string, number | string>> {
  const figures: Record<string, number | string> = {
    setup: `${TRUCKS} GT06 trackers over TCP, ${FIXES} fixes each, half detouring; ingest/journey/geofence x1 then x2 as separate processes, one ops-api and gateway; real Kafka (12 partitions), PostgreSQL, Redis`,
  };
  const reports: Record<string, ScaleReport> = {};
  for (const n of [1, 2]) {
    const r = await layout(n);
    reports[n] = r;
    const lat = r.flagLatenciesMs;
    Object.assign(figures, {
      [`x${n}.acked_fixes_per_s`]: round(r.fixesPerSecond),
      [`x${n}.caught_up_fixes_per_s`]: round(r.fixesAcknowledged / r.settleSeconds),
      [`x${n}.flags`]: r.flagsRaised,
      [`x${n}.flag_latency_p50_ms`]: round(quantile(lat, 0.5)),
      [`x${n}.flag_latency_p90_ms`]: round(quantile(lat, 0.9)),
      [`x${n}.flag_latency_max_ms`]: round(lat.at(-1) ?? NaN),
    });
  }
  figures['two_over_one.acked_fixes_per_s'] = round(reports[2]!.fixesPerSecond / reports[1]!.fixesPerSecond);
  figures['two_over_one.flag_latency_p50'] = round(quantile(reports[2]!.flagLatenciesMs, 0.5) / quantile(reports[1]!.flagLatenciesMs, 0.5));
  return figures;
}
