import { Topics, type EventMessage, type PositionMessage } from '@corridor/contracts';
import type { Subscription } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { gt06, registryEntry, TestDevice } from './test-device';
import { registry } from '@corridor/platform';

/**
 * Issue 23's cross-protocol claims end to end, on real sockets and the real bus (Kafka and Redis
 * where the environment has them, always in CI): a device speaks one protocol; frames carrying its
 * id on another protocol's port are refused and stored nowhere, with a deviceIdentityConflict event
 * on events.v1; an e-seal bound to JT701 cannot be unlocked by a frame on another port; two
 * connections claiming one device at once raise the duplicate-connection event. Positions are seen
 * as the bus confirmed them (the intake wrapped); "stored nowhere" is proven by a marker: a later
 * genuine frame of the same device is published, and the refused one never was.
 */
const TRUCK = { id: 3951, imei: '359710049095951' };
const SEAL = { id: 3952, uniqueId: '7890629284' };
const DOUBLE = { id: 3953, imei: '359710049095953' };
/** Jointech's P45 lock report of seal 7890629284 (services/ingest/src/protocols/jt701/jt701.test.ts), and the same with "unlocked" (field 12 = 3). */
const P45_LOCK = '(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,5,0,0000000000,0,0,0)';
const P45_UNLOCK = '(7890629284,P45,260321,185342,26.181296,N,50.329788,E,V,0.00,0,6,3,0000000000,0,0,0)';
/** H02 and Queclink reports as their trackers send them (tcp-ports.test.ts, Traccar's Gl200TextProtocolDecoderTest), for another id. */
const h02 = (id: string) => `*HQ,${id},V1,164549,A,0956.3869,N,08406.7068,W,000.00,000,221215,FFFFFBFF,712,01,0,0,6#`;
const queclink = (imei: string) =>
  `+RESP:GTFRI,DF0200,${imei},cv100,14051,10,1,0,0.0,0,264.1,114.015515,22.537178,20210608064328,0460,0001,25F8,061A7D02,,0.0,,,,100,21,,,,20210608144354,32DB$`;

let adapters: TestAdapters;
let svc: IngestService;
const published: PositionMessage[] = [];
const events: EventMessage[] = [];
let sub: Subscription | undefined;
const port = {} as Record<'gt06' | 'h02' | 'queclink' | 'jt701' | 'tk103', number>;

beforeAll(async () => {
  adapters = await createTestAdapters(await primaryKind());
  // a connection's later frames are checked for duplicates with its device-status "seen", at most every DEVICE_SEEN_INTERVAL_S
  svc = await build({ ...adapters, identitySecret: 'identity-claims-test-secret-0123456789', settings: { DEVICE_SEEN_INTERVAL_S: 1 } });
  await svc.start();
  sub = await adapters.bus.subscribe({
    groupId: 'identity-claims-test',
    topics: [Topics.events],
    fromBeginning: true,
    handler: async (ms) => void events.push(...ms.map((m) => JSON.parse(m.value) as EventMessage)),
  });
  const accept = svc.intake.accept.bind(svc.intake);
  svc.intake.accept = async (fixes, meta) => {
    const out = await accept(fixes, meta);
    published.push(...out);
    return out;
  };
  svc.registry.apply(registryEntry(TRUCK.id, TRUCK.imei));
  svc.registry.apply(registryEntry(SEAL.id, SEAL.uniqueId));
  svc.registry.apply(registryEntry(DOUBLE.id, DOUBLE.imei));
  for (const p of ['gt06', 'h02', 'queclink', 'jt701', 'tk103'] as const) port[p] = await svc.ports.tcp[p].listen(0, '127.0.0.1');
}, 120_000);

afterAll(async () => {
  await sub?.stop();
  await svc?.close();
  await adapters?.close();
});

/** Frames of a protocol that did not decode, every reason together. */
async function decodeErrors(protocol: string): Promise<number> {
  const { values } = await registry.getSingleMetric('ingest_decode_errors_total')!.get();
  return values.filter((v) => v.labels.protocol === protocol).reduce((a, v) => a + v.value, 0);
}
const conflicts = (deviceId: number, reason: string) =>
  events.filter(
    (e) => e.type === 'deviceIdentityConflict' && e.deviceId === deviceId && (e.attributes as { reason?: string }).reason === reason,
  );
const positionsOf = (deviceId: number, protocol?: string) =>
  published.filter((p) => p.deviceId === deviceId && (protocol === undefined || p.protocol === protocol));

/** Writes a text frame on a fresh connection to `p` and waits until the server closed it (a refusal closes the connection). */
async function refusedOn(p: keyof typeof port, frame: string): Promise<void> {
  const d = await TestDevice.open(port[p]);
  await d.write(Buffer.from(frame, 'latin1'));
  await d.waitClosed();
}

describe('a device claimed on a protocol it does not speak', () => {
  it("refuses H02 and Queclink frames carrying a GT06 truck's IMEI: nothing stored, one event, while the truck keeps reporting", async () => {
    const truck = await TestDevice.open(port.gt06);
    await truck.write(gt06.login(TRUCK.imei, 1));
    await truck.waitReceived(10);
    await truck.write(gt06.location(new Date(Date.UTC(2026, 0, 5, 6, 0, 0)), -1.29, 36.82, 2));
    await truck.waitReceived(20);
    await eventually('the GT06 fix published', () => positionsOf(TRUCK.id, 'gt06').length === 1);

    await refusedOn('h02', h02(TRUCK.imei));
    await refusedOn('queclink', queclink(TRUCK.imei));
    await eventually('a deviceIdentityConflict event for the truck', () => conflicts(TRUCK.id, 'protocol').length >= 1);

    // the marker: the truck's next genuine fix is published after both forgeries were handled
    await truck.write(gt06.location(new Date(Date.UTC(2026, 0, 5, 6, 1, 0)), -1.3, 36.83, 3));
    await truck.waitReceived(30);
    await eventually('the marker fix published', () => positionsOf(TRUCK.id, 'gt06').length === 2);
    expect(positionsOf(TRUCK.id).map((p) => p.protocol)).toEqual(['gt06', 'gt06']);
    truck.close();
  });

  it('cannot unlock an e-seal bound to JT701 from another port: no unlock alarm, no position', async () => {
    const seal = await TestDevice.open(port.jt701);
    await seal.write(Buffer.from(P45_LOCK, 'latin1'));
    await eventually("the seal's JT701 report published", () => positionsOf(SEAL.id, 'jt701').length === 1);
    await refusedOn('h02', h02(SEAL.uniqueId));
    // TK103 frames share JT701's brackets: the seal's unlock report there is no TK103 message (a decode error, counted)
    const errors = await decodeErrors('tk103');
    const tk = await TestDevice.open(port.tk103);
    await tk.write(Buffer.from(P45_UNLOCK, 'latin1'));
    await eventually('the TK103 port refused the frame', async () => (await decodeErrors('tk103')) === errors + 1);
    tk.close();
    await eventually('a deviceIdentityConflict event for the seal', () => conflicts(SEAL.id, 'protocol').length >= 1);
    // the marker: a genuine lock report of the seal on its own port
    await seal.write(Buffer.from(P45_LOCK.replace('185342', '185442'), 'latin1'));
    await eventually('the marker report published', () => positionsOf(SEAL.id, 'jt701').length === 2);
    expect(positionsOf(SEAL.id).every((p) => p.protocol === 'jt701')).toBe(true);
    expect(positionsOf(SEAL.id).some((p) => p.alarm === 'unlock')).toBe(false);
    expect(events.some((e) => e.deviceId === SEAL.id && e.type === 'alarm')).toBe(false);
    seal.close();
  });

  it('raises the duplicate-connection event when two connections send for one device at once', async () => {
    const first = await TestDevice.open(port.gt06);
    await first.write(gt06.login(DOUBLE.imei, 1));
    await first.waitReceived(10);
    const second = await TestDevice.open(port.gt06);
    await second.write(gt06.login(DOUBLE.imei, 1));
    await second.waitReceived(10);
    await second.write(gt06.location(new Date(Date.UTC(2026, 0, 5, 7, 0, 0)), -1.29, 36.82, 2));
    // both go on reporting, as two trackers with one IMEI do, until the event comes (each report is the scenario's clock)
    let serial = 3;
    await eventually(
      'a duplicate_connection event',
      async () => {
        if (conflicts(DOUBLE.id, 'duplicate_connection').length) return true;
        serial++;
        await first.write(gt06.location(new Date(Date.UTC(2026, 0, 5, 7, 0, serial)), -1.3, 36.83, serial));
        await second.write(gt06.location(new Date(Date.UTC(2026, 0, 5, 7, 1, serial)), -1.3, 36.83, serial));
        return false;
      },
      { everyMs: 250 },
    );
    expect(conflicts(DOUBLE.id, 'duplicate_connection')).toHaveLength(1);
    first.close();
    second.close();
  });
});
