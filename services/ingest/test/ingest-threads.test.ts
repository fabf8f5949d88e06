import { Topics } from '@corridor/contracts';
import { loadChdb, MemoryBus, processMetrics } from '@corridor/platform';
import { startChdbHttp, type ChdbHttpServer } from '@corridor/platform/testing/chdb-http';
import { eventually } from '@corridor/platform/testing/eventually';
import { freePort } from '@corridor/platform/testing/free-port';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { registerDevices } from '@corridor/platform/testing/registry';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startIngestThreads, type IngestThreads } from '../src/threads/ingest-threads';
import { gt06, registryEntry, TestDevice } from './test-device';

/**
 * Ingest on every core: two worker threads, each a whole ingest instance, on ONE GT06 port
 * (SO_REUSEPORT), using this thread's embedded bus and cache through the thread bridge and its chDB
 * through the ClickHouse HTTP front, as the one-process stack runs them (`pnpm start`).
 */
const TRACKERS = Array.from({ length: 6 }, (_, i) => ({ id: 4401 + i, imei: `35971004907770${i}` }));
const t0 = Date.UTC(2025, 5, 4, 8, 0, 0);

let adapters: TestAdapters;
let chdb: ChdbHttpServer;
let threads: IngestThreads | undefined;
let port: number;

beforeAll(async () => {
  adapters = await createTestAdapters('embedded');
  for (const t of TRACKERS) await adapters.bus.publish(Topics.devices, [{ key: String(t.id), value: registryEntry(t.id, t.imei) }]);
  // as ops-api registers a device: on devices.v1 and in the shared cache. A thread's registry reads
  // devices.v1 from the beginning after it starts listening; a login that arrives before it has caught
  // up is answered from the cache (without it the login went unanswered: CI failed on that race).
  await registerDevices(
    adapters.cache,
    TRACKERS.map((t) => ({ id: t.id, uniqueId: t.imei })),
  );
  const connection = (await loadChdb()).openChdbConnection();
  chdb = await startChdbHttp({ connection: connection! });
  port = await freePort();
  threads = await startIngestThreads({
    count: 2,
    env: {
      GT06_PORT: String(port),
      ...Object.fromEntries(
        ['TELTONIKA', 'H02', 'GPS103', 'TK103', 'MEITRACK', 'JT808', 'RUPTELA', 'JT701', 'QUECLINK', 'WIALON'].map((p) => [
          `${p}_PORT`,
          '0',
        ]),
      ),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'error',
      INTERNAL_TOKEN_SECRET: TEST_IDENTITY_SECRET,
    },
    logger: adapters.logger,
    bridged: { bus: adapters.bus, cache: adapters.cache, clickhouseUrl: chdb.url, clickhouseDatabase: adapters.analytics.database },
  });
}, 120_000);

afterAll(async () => {
  await threads?.close();
  await chdb?.close();
  await adapters?.close();
});

describe('ingest threads', () => {
  it("serve one device port from two threads and publish what the trackers send on this thread's bus", async () => {
    expect(threads!.ports).toEqual([{ gt06: port }, { gt06: port }]);
    const bus = adapters.bus as MemoryBus;
    const before = bus.size(Topics.positions);
    const devices = await Promise.all(TRACKERS.map(() => TestDevice.open(port)));
    await Promise.all(
      devices.map(async (d, i) => {
        await d.write(gt06.login(TRACKERS[i]!.imei, 1));
        await d.waitReceived(10);
        await d.write(gt06.location(new Date(t0 + i * 1000), -1.3, 36.8, 2));
        await d.waitReceived(20);
      }),
    );
    // acknowledged once posted to this thread's bus (the port's queue is part of the in-process bus):
    // every acked fix reaches it, once
    await eventually('every acked fix on the bus', () => expect(bus.size(Topics.positions) - before).toBe(TRACKERS.length));
    // the threads' counters reach this thread's /metrics
    await eventually("the threads' metrics aggregated", async () =>
      expect(await processMetrics()).toMatch(/ingest_positions_published_total\{protocol="gt06"\} 6/),
    );
    for (const d of devices) d.close();
  });
});
