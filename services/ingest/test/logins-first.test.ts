import { describe, expect, it } from 'vitest';
import { gatedIngest, MAX_PENDING } from './gated-ingest';
import { DEFAULT_CEILING_MS, gt06, TestDevice, waitFor } from './test-device';

/**
 * Logins first (issue 28): ingest starved of publishing (the bus refuses every publish, so the
 * intake gate fills with one tracker's positions and stays full) still acknowledges another
 * tracker's login at once and reads its heartbeat, instead of holding them behind the positions
 * until the gate has room. Positions stay held; identities never are.
 */
const STREAMER = { id: 4301, imei: '359710049066601' };
const LATECOMER = { id: 4302, imei: '359710049066602' };
const t0 = Date.UTC(2025, 5, 3, 8, 0, 0);

const ingest = gatedIngest([
  { id: STREAMER.id, uniqueId: STREAMER.imei },
  { id: LATECOMER.id, uniqueId: LATECOMER.imei },
]);

describe('logins first', () => {
  it('acknowledges a login and reads a heartbeat while the intake gate is full of positions that cannot be published', async () => {
    const streamer = await TestDevice.open(ingest.port);
    await streamer.write(gt06.login(STREAMER.imei, 1));
    await streamer.waitReceived(10);
    ingest.bus.available = false;
    await streamer.write(Buffer.concat(Array.from({ length: 10 }, (_, i) => gt06.location(new Date(t0 + i * 1000), -1.3, 36.8, 2 + i))));
    await waitFor(
      () => ingest.svc.ports.gate.pendingFixes >= MAX_PENDING && ingest.svc.ports.tcp.gt06.connections.some((c) => c.isPaused),
      DEFAULT_CEILING_MS,
      'the gate full and the streamer paused',
    );
    expect(ingest.svc.ports.gate.hasRoom).toBe(false);

    // a tracker connecting now: its login is acknowledged although no position can get through
    const latecomer = await TestDevice.open(ingest.port);
    await latecomer.write(gt06.login(LATECOMER.imei, 1));
    await latecomer.waitReceived(10);
    expect(latecomer.received.toString('hex')).toBe(gt06.ack(0x01, 1).toString('hex'));
    expect(streamer.received.length).toBe(10); // the positions still wait

    // its heartbeat (a status report: a state record, stored like a position) is read and admitted
    // past the full gate; its ack waits only for the bus, as every stored record's does
    const pendingBefore = ingest.svc.ports.gate.pendingFixes;
    await latecomer.write(gt06.heartbeat(2));
    await waitFor(() => ingest.svc.ports.gate.pendingFixes === pendingBefore + 1, DEFAULT_CEILING_MS, 'the heartbeat admitted');
    const latecomerConnection = ingest.svc.ports.tcp.gt06.connections.find((c) => c.uniqueId === LATECOMER.imei);
    expect(latecomerConnection?.isPaused).toBe(false);
    expect(latecomerConnection?.backlog).toBe(1);

    ingest.bus.available = true;
    await latecomer.waitReceived(20);
    expect(latecomer.received.subarray(10).toString('hex')).toBe(gt06.ack(0x13, 2).toString('hex'));
    await streamer.waitReceived(10 + 10 * 10, 10_000);
    await waitFor(() => ingest.svc.ports.gate.pendingFixes === 0, DEFAULT_CEILING_MS, 'nothing pending');
    streamer.close();
    latecomer.close();
  });
});
