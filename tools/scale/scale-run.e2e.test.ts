import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Topics } from '@corridor/contracts';
import { kafkaJarsPresent, kafkaLibsDir } from '@corridor/platform/testing/dedicated-kafka';
import { inCI, realPart } from '@corridor/platform/testing/real-parts';
import { startScaleCluster, type ScaleCluster } from './cluster';
import { formatReport, runScenario, type ScaleReport } from './scenario';

/**
 * Issue 16's multi-instance run, bounded for CI: two ingest, two journey, two geofence, one ops-api
 * and two gateways, each its own process, on a Kafka broker of this file's own with positions.v1 at
 * 12 partitions; 12 GT06 trackers over TCP on both ingest instances, on journeys created through
 * the gateway, half of them detouring. ingest-2 and journey-2 are SIGKILLed mid-stream and started
 * again. Every acknowledged fix must be stored exactly once, every expected flag raised exactly once
 * (and nothing else flagged), every cut-off tracker reconnected, and the restarted instances back
 * in their consumer groups. Across the gateways: a session made through gateway-1 works through
 * gateway-2 and a sign-out through one ends it on both; a socket on gateway-2, signed in through
 * gateway-1, gets a frame for every acknowledged fix and flag event, exactly once per id on the
 * bus (no second gateway's or second consumer's copies, and one frame for a fix the bus carries twice). Every wait is for a condition under a generous ceiling; nothing is timed.
 */
const libs = kafkaLibsDir();
const [postgres, redis] = await Promise.all([realPart('postgres').catch(() => undefined), realPart('redis').catch(() => undefined)]);
const runnable = (kafkaJarsPresent(libs) && postgres && redis) || inCI();

if (runnable) describe('many instances on real Kafka, with an ingest and a journey instance killed mid-run', scaleSuite);
else {
  // outside CI without the broker jars or PostgreSQL/Redis the file holds one honest test; CI always runs the run
  describe('multi-instance run (no Kafka jars, PostgreSQL or Redis here)', () => {
    it('runs only where tools/dev-services provides them (always in CI)', () => {
      expect(inCI()).toBe(false);
    });
  });
}

function scaleSuite(): void {
  let cluster: ScaleCluster | undefined;
  let report: ScaleReport | undefined;

  beforeAll(async () => {
    cluster = await startScaleCluster({ instances: { ingest: 2, journey: 2, geofence: 2, gateway: 2 } });
  }, 900_000);

  afterAll(async () => {
    await cluster?.close({ keepLogs: !report || report.problems.length > 0 });
    if (!report || report.problems.length > 0) console.log(`multi-instance run: logs kept in ${cluster?.dir}/logs`);
  }, 180_000);

  it('stores every acknowledged fix once and raises every expected flag once after the kills, with every tracker reconnected', async () => {
    const c = cluster!;
    const meta = await c.admin.metadata({ topics: [Topics.positions], forceUpdate: true });
    expect(meta.topics.get(Topics.positions)?.partitionsCount).toBe(12);
    report = await runScenario(c, {
      trucks: 12,
      fixes: 36,
      detourEvery: 2,
      kill: ['ingest-2', 'journey-2'],
      log: (m) => console.log(`[scale] ${m}`),
    });
    console.log(`multi-instance run:\n${formatReport(report)}`);
    expect(report.problems).toEqual([]);
    expect(report.fixesAcknowledged).toBe(12 * 36);
    expect(report.positionsStored).toBe(report.fixesAcknowledged);
    expect(report.flagsRaised).toBe(report.flagsExpected);
    expect(report.flagsExpected).toBe(6 * 3);
    expect(report.trackersCutOff).toBe(6);
    expect(report.trackersReconnected).toBe(report.trackersCutOff);
    expect(report.live?.gateway).toBe('gateway-2');
    expect(report.live?.missingFixes).toBe(0);
    expect(report.live?.duplicateFrames).toBe(0);
    expect(report.live?.flagEventFrames).toEqual(report.flagEventsExpected);
  }, 1_200_000);
}
