import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Device, EventMessage } from '@corridor/contracts';
import { deviceStateSettingsFrom } from '@corridor/ops-api';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { simDeviceIds, startSimulator, type SimulatorHandle } from '../sim/simulator';
import { registerSimDevices } from './sim-devices';
import { ADMIN_AUTH, eventually, startTestStack, type TestStack } from './test-stack';

/**
 * Issue 13's "done when", on the primary adapters (the real parts in CI): the simulator's trucks,
 * one per protocol (OsmAnd over HTTP, GT06 and Teltonika over TCP), all online in GET /api/devices
 * with a fresh lastUpdate while it runs; once it stops, the TCP trucks offline (their connections
 * closed) and the OsmAnd truck unknown after the status timeout (Traccar's status for a device that
 * has no connection and went silent), each change as an event in the events report.
 */
/** A ceiling, not an assertion: a truck reports every 60 ms, so it cannot time out while the simulator runs. */
const TIMEOUT_S = 5;
const PROTOCOLS = ['osmand', 'gt06', 'teltonika'] as const;

describe('the simulated fleet in GET /api/devices', { timeout: 120_000 }, () => {
  let stack: TestStack;
  let sim: SimulatorHandle | undefined;
  let trucks: Device[] = [];
  const uniqueIds = simDeviceIds(PROTOCOLS.length);

  const devices = async (): Promise<Device[]> => {
    const res = await stack.call(ADMIN_AUTH, 'GET', `/api/devices?${uniqueIds.map((u) => `uniqueId=${u}`).join('&')}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Device[]>();
  };

  beforeAll(async () => {
    stack = await startTestStack(await primaryKind(), {
      ops: { deviceState: deviceStateSettingsFrom({ DEVICE_STATUS_TIMEOUT_S: TIMEOUT_S, DEVICE_STATE_PERSIST_S: 0 }) },
    });
    await registerSimDevices(stack.ops, uniqueIds);
    trucks = await devices();
    expect(trucks.map((d) => d.uniqueId).sort()).toEqual([...uniqueIds].sort());
    for (const u of uniqueIds) await eventually(`ingest to know ${u}`, async () => (await stack.ingest.registry.lookup(u)) !== undefined);
  }, 180_000);

  afterAll(async () => {
    await sim?.stop();
    // a report the simulator aborted at stop can leave a request half sent, which closing would wait for
    const sweep = setInterval(() => stack?.ingest.osmand.server.closeAllConnections(), 100);
    await stack?.close();
    clearInterval(sweep);
  });

  it('shows every truck online with a fresh lastUpdate while the simulator runs', async () => {
    await stack.ingest.osmand.listen({ host: '127.0.0.1', port: 0 });
    const osmandPort = (stack.ingest.osmand.server.address() as { port: number }).port;
    const [gt06, teltonika] = [
      await stack.ingest.ports.tcp.gt06.listen(0, '127.0.0.1'),
      await stack.ingest.ports.tcp.teltonika.listen(0, '127.0.0.1'),
    ];
    const started = Date.now();
    sim = startSimulator({
      trucks: uniqueIds.length,
      deviceIds: uniqueIds,
      ingestUrl: `http://127.0.0.1:${osmandPort}`,
      protocols: PROTOCOLS,
      tcpPorts: { gt06, teltonika },
      intervalMs: 60,
    });
    const online = await eventually('every truck online', async () => {
      const list = await devices();
      return list.length === uniqueIds.length && list.every((d) => d.status === 'online' && d.lastUpdate !== null) && list;
    });
    for (const d of online) expect(Date.parse(d.lastUpdate!), d.uniqueId).toBeGreaterThanOrEqual(started - 1000);
    expect(sim.stats().failed).toBe(0);
  });

  it('once the simulator stops: the TCP trucks offline, the OsmAnd truck unknown after the timeout, each as an event', async () => {
    await sim!.stop();
    sim = undefined;
    const protocolOf = (d: Device) => PROTOCOLS[uniqueIds.indexOf(d.uniqueId) % PROTOCOLS.length];
    const expected = (d: Device) => (protocolOf(d) === 'osmand' ? 'unknown' : 'offline');
    const after = await eventually('every truck offline or unknown', async () => {
      const list = await devices();
      return list.every((d) => d.status === expected(d)) && list;
    });
    expect(after.map((d) => [protocolOf(d), d.status]).sort()).toEqual([
      ['gt06', 'offline'],
      ['osmand', 'unknown'],
      ['teltonika', 'offline'],
    ]);
    const q = new URLSearchParams({
      from: new Date(Date.now() - 10 * 60_000).toISOString(),
      to: new Date(Date.now() + 60_000).toISOString(),
    });
    for (const d of trucks) q.append('deviceId', String(d.id));
    const statusEvents = await eventually('the status events in the events report', async () => {
      const res = await stack.call(ADMIN_AUTH, 'GET', `/api/reports/events?${q}`);
      const events = res.json<EventMessage[]>().filter((e) => ['deviceOnline', 'deviceOffline', 'deviceUnknown'].includes(e.type));
      return (
        trucks.every(
          (d) => events.filter((e) => e.deviceId === d.id).at(-1)?.type === (expected(d) === 'offline' ? 'deviceOffline' : 'deviceUnknown'),
        ) && events
      );
    });
    for (const d of trucks) expect(statusEvents.filter((e) => e.deviceId === d.id).map((e) => e.type)[0], d.uniqueId).toBe('deviceOnline');
  });
});
