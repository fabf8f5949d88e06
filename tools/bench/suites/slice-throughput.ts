/**
 * Positions/s end to end through the first slice: OsmAnd HTTP requests and JSON batches into
 * ingest → positions.v1 → the position store → ClickHouse (counted after dedupe). Runs on the
 * embedded adapters, and on real Kafka + PostgreSQL + Redis when the environment has them
 * (KAFKA_BROKERS, DATABASE_URL, REDIS_URL), so the two can be compared as a ratio in one run.
 */
import { request } from 'undici';
import { build as buildIngest } from '@corridor/ingest';
import { build as buildOpsApi } from '@corridor/ops-api';
import { countPositions } from '@corridor/platform';
import { adapterKinds, createTestAdapters, type AdapterKind } from '@corridor/platform/testing/test-adapters';
import { TEST_IDENTITY_SECRET, asUser, testUsers } from '@corridor/platform/testing/identity';

const DEVICES = 100;
const OSMAND_POSITIONS = 4000;
const BATCH_POSITIONS = 20000;
const CONCURRENCY = 32;

async function runOn(kind: AdapterKind): Promise<Record<string, number>> {
  const adapters = await createTestAdapters(kind);
  const common = { ...adapters, identitySecret: TEST_IDENTITY_SECRET, logger: adapters.logger };
  const ops = await buildOpsApi(common);
  const ingest = await buildIngest(common);
  await ops.start();
  await ingest.start();
  await ingest.osmand.listen({ host: '127.0.0.1', port: 0 });
  await ingest.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (a: typeof ingest.app) => (a.server.address() as { port: number }).port;
  const ids: number[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const d = await ops.devices.create({
      name: `bench ${i}`,
      uniqueId: `bench${kind}${i}`,
      disabled: false,
      groupId: null,
      calendarId: null,
      companyId: null,
      phone: null,
      model: null,
      contact: null,
      category: null,
      expirationTime: null,
      attributes: {},
    });
    ids.push(d.id);
  }
  const t0 = Date.UTC(2026, 0, 1);
  const count = countPositions(adapters.analytics);
  const waitFor = async (n: number): Promise<void> => {
    while ((await count(ids)) < n) await new Promise((r) => setTimeout(r, 100));
  };
  try {
    // OsmAnd: one HTTP request per position, CONCURRENCY at a time
    const osmandUrl = `http://127.0.0.1:${port(ingest.osmand)}`;
    let next = 0;
    const start1 = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < OSMAND_POSITIONS) {
          const i = next++;
          const res = await request(
            `${osmandUrl}/?id=bench${kind}${i % DEVICES}&lat=-1.${i % 1000}&lon=36.8&timestamp=${t0 / 1000 + i}&speed=20`,
          );
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`osmand answered ${res.statusCode}`);
        }
      }),
    );
    const acked1 = performance.now();
    await waitFor(OSMAND_POSITIONS);
    const stored1 = performance.now();
    // JSON batches of 500 through POST /api/positions
    const apiUrl = `http://127.0.0.1:${port(ingest.app)}/api/positions`;
    const headers = { ...(await asUser({ ...testUsers.admin })), 'content-type': 'application/json' };
    const batches = BATCH_POSITIONS / 500;
    let b = 0;
    const start2 = performance.now();
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (b < batches) {
          const k = b++;
          const positions = Array.from({ length: 500 }, (_, j) => {
            const i = OSMAND_POSITIONS + k * 500 + j;
            return {
              uniqueId: `bench${kind}${i % DEVICES}`,
              fixTime: new Date(t0 + i * 1000).toISOString(),
              latitude: -1.2,
              longitude: 36.8 + (i % 1000) / 1e4,
              speed: 20,
              course: 90,
            };
          });
          const res = await request(apiUrl, { method: 'POST', headers, body: JSON.stringify({ positions }) });
          await res.body.dump();
          if (res.statusCode !== 200) throw new Error(`batch answered ${res.statusCode}`);
        }
      }),
    );
    const acked2 = performance.now();
    await waitFor(OSMAND_POSITIONS + BATCH_POSITIONS);
    const stored2 = performance.now();
    return {
      [`${kind}.osmand_http_acked_per_s`]: Math.round(OSMAND_POSITIONS / ((acked1 - start1) / 1000)),
      [`${kind}.osmand_http_to_clickhouse_per_s`]: Math.round(OSMAND_POSITIONS / ((stored1 - start1) / 1000)),
      [`${kind}.json_batch_acked_per_s`]: Math.round(BATCH_POSITIONS / ((acked2 - start2) / 1000)),
      [`${kind}.json_batch_to_clickhouse_per_s`]: Math.round(BATCH_POSITIONS / ((stored2 - start2) / 1000)),
    };
  } finally {
    await ingest.close();
    await ops.close();
    await adapters.close();
  }
}

export default async function run(): Promise<Record<string, number | string>> {
  const out: Record<string, number | string> = {};
  for (const kind of await adapterKinds()) Object.assign(out, await runOn(kind));
  const e = out['embedded.json_batch_to_clickhouse_per_s'];
  const r = out['real.json_batch_to_clickhouse_per_s'];
  if (typeof e === 'number' && typeof r === 'number') out['real_over_embedded.json_batch'] = Math.round((r / e) * 100) / 100;
  if (r === undefined) out.note = 'real parts not set (KAFKA_BROKERS, DATABASE_URL, REDIS_URL): embedded only';
  return out;
}
