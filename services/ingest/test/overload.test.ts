import { asUser, userWith } from '@corridor/platform/testing/identity';
import { describe, expect, it } from 'vitest';
import { gatedIngest, MAX_PENDING } from './gated-ingest';
import { metricValue } from './metrics';
import { DEFAULT_CEILING_MS, gt06, TestDevice, waitFor } from './test-device';

/**
 * The intake gate end to end (embedded bus, whose publishes a test can make fail): fixes read and
 * not yet published are bounded service-wide. While publishing is stuck the TCP connections stop
 * reading once MAX_PENDING_FIXES are pending, and the HTTP position APIs answer 503 with
 * Retry-After at once instead of queueing; when the bus is back everything held is acknowledged
 * and the HTTP clients get through.
 */
const IMEI = '359710049055555';
const DEVICE = 4201;
const OSMAND_ID = 'osmand-overload-1';
const OSMAND_DEVICE = 4202;
const t0 = Date.UTC(2025, 5, 2, 8, 0, 0);

const ingest = gatedIngest([
  { id: DEVICE, uniqueId: IMEI },
  { id: OSMAND_DEVICE, uniqueId: OSMAND_ID },
]);

const osmand = (i: number) =>
  ingest.svc.osmand.inject({ method: 'GET', url: `/?id=${OSMAND_ID}&lat=-1.29&lon=36.82&timestamp=${t0 / 1000 + i}` });

describe('intake gate', () => {
  it('answers an HTTP position 503 with Retry-After while the bus refuses it', async () => {
    ingest.bus.available = false;
    try {
      const res = await osmand(0);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      ingest.bus.available = true;
    }
  });

  it('stops reading device connections and refuses HTTP at once while MAX_PENDING_FIXES wait for the bus, then lets everything through', async () => {
    const device = await TestDevice.open(ingest.port);
    await device.write(gt06.login(IMEI, 1));
    await device.waitReceived(10);
    ingest.bus.available = false;
    // a tracker with a backlog streams 10 fixes; only MAX_PENDING are read, the rest wait in the socket
    await device.write(Buffer.concat(Array.from({ length: 10 }, (_, i) => gt06.location(new Date(t0 + i * 1000), -1.3, 36.8, 2 + i))));
    await waitFor(
      () => ingest.svc.ports.gate.pendingFixes >= MAX_PENDING && ingest.svc.ports.tcp.gt06.connections[0]?.isPaused === true,
      DEFAULT_CEILING_MS,
      'the gate full and the connection paused',
    );
    expect(ingest.svc.ports.gate.pendingFixes).toBe(MAX_PENDING);

    const refusedBefore = await metricValue('ingest_overload_refusals_total', { transport: 'http' });
    const refused = await osmand(1);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ error: { code: 'UNAVAILABLE', message: 'Ingest is overloaded; retry later' } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    const batch = await ingest.svc.app.inject({
      method: 'POST',
      url: '/api/positions',
      headers: await asUser(userWith(['admin'])),
      payload: {
        positions: [
          { uniqueId: OSMAND_ID, fixTime: new Date(t0 + 2000).toISOString(), latitude: -1.29, longitude: 36.82, speed: 0, course: 0 },
        ],
      },
    });
    expect(batch.statusCode).toBe(503);
    expect(Number(batch.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await metricValue('ingest_overload_refusals_total', { transport: 'http' })).toBe(refusedBefore + 2);
    expect(device.received.length).toBe(10); // nothing acknowledged while the bus is down

    ingest.bus.available = true;
    await device.waitReceived(10 + 10 * 10, 10_000);
    expect(device.received.subarray(10).toString('hex')).toBe(
      Buffer.concat(Array.from({ length: 10 }, (_, i) => gt06.ack(0x12, 2 + i))).toString('hex'),
    );
    await waitFor(() => ingest.svc.ports.gate.pendingFixes === 0, DEFAULT_CEILING_MS, 'nothing pending');
    expect((await osmand(3)).statusCode).toBe(200);
    device.close();
  });
});
