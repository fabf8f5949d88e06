import type { PositionMessage } from '@corridor/contracts';
import { build, type IngestService } from '@corridor/ingest';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simDeviceIds, startSimulator } from './simulator';
import { eventually } from '@corridor/platform/testing/eventually';

/** `--protocols osmand,gt06,teltonika`: trucks round-robin over the protocols, into a real ingest. */
let adapters: TestAdapters;
let ingest: IngestService;
const published: PositionMessage[] = [];
const ids = simDeviceIds(6);

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  ingest = await build({ ...adapters, identitySecret: 'sim-protocols-test-secret-0123456789' });
  await ingest.start();
  ids.forEach((uniqueId, i) =>
    ingest.registry.apply({
      id: 9001 + i,
      uniqueId,
      name: `sim ${i}`,
      disabled: false,
      companyId: null,
      groupId: null,
      status: 'online',
      deleted: false,
    }),
  );
  const accept = ingest.intake.accept.bind(ingest.intake);
  ingest.intake.accept = async (fixes, meta) => {
    const out = await accept(fixes, meta);
    published.push(...out);
    return out;
  };
});

afterAll(async () => {
  // a report the simulator aborted at stop can leave a request half sent, which fastify's close
  // would wait for: sweep the OsmAnd port's connections until ingest has closed
  const sweep = setInterval(() => ingest?.osmand.server.closeAllConnections(), 100);
  await ingest?.close();
  clearInterval(sweep);
  await adapters?.close();
});

describe('simulator over device protocols', () => {
  it('drives each truck over its protocol: OsmAnd HTTP, GT06 and Teltonika TCP', async () => {
    await ingest.osmand.listen({ host: '127.0.0.1', port: 0 });
    const osmandPort = (ingest.osmand.server.address() as { port: number }).port;
    const gt06 = await ingest.ports.tcp.gt06.listen(0, '127.0.0.1');
    const teltonika = await ingest.ports.tcp.teltonika.listen(0, '127.0.0.1');
    const sim = startSimulator({
      trucks: 6,
      ingestUrl: `http://127.0.0.1:${osmandPort}`,
      protocols: ['osmand', 'gt06', 'teltonika'],
      tcpPorts: { gt06, teltonika },
      // real time: the trucks' speeds are what their fixes move at (a compressed time reports its ground speed, over what ingest accepts)
      intervalMs: 60,
    });
    await eventually('two positions of every truck', () => ids.every((id) => published.filter((p) => p.uniqueId === id).length >= 2));
    const stats = sim.stats(); // before stop: stopping aborts the reports in flight
    await sim.stop();
    expect(stats.failed).toBe(0);
    expect(Object.keys(stats.byProtocol).sort()).toEqual(['gt06', 'osmand', 'teltonika']);
    ids.forEach((id, i) => {
      const mine = published.filter((p) => p.uniqueId === id);
      expect(mine.length, id).toBeGreaterThanOrEqual(2);
      expect(new Set(mine.map((p) => p.protocol))).toEqual(new Set([['osmand', 'gt06', 'teltonika'][i % 3]]));
      for (const p of mine) {
        expect(p.latitude).toBeGreaterThan(-12); // on the East African corridors
        expect(p.latitude).toBeLessThan(5);
        expect(p.longitude).toBeGreaterThan(28);
        expect(p.longitude).toBeLessThan(42);
      }
    });
  }, 30_000);
});
