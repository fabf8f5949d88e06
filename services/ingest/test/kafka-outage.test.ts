import { Topics, type PositionMessage, positionId } from '@corridor/contracts';
import {
  countPositions,
  type Bus,
  type BusMessage,
  type ProducerStatus,
  type SubscribeOptions,
  type Subscription,
  type TopicSpec,
} from '@corridor/platform';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCI } from '@corridor/platform/testing/real-parts';
import { build, type IngestService } from '../src/app';
import { gt06, registryEntry, sleep, TestDevice, waitFor } from './test-device';

/**
 * The fault test on real Kafka: GT06 devices stream over TCP while the broker becomes unreachable
 * and comes back. Every acknowledged position must be in ClickHouse exactly once after dedupe, no
 * frame is acknowledged before Kafka confirmed it, and frames held when a device gave up were never
 * acknowledged.
 *
 * The outage is simulated at the client, because the shared broker cannot be stopped from a test
 * and a TCP proxy cannot stand in front of it (the client connects to the address the broker
 * advertises in its metadata, not to the bootstrap address). OutageBus is the ONE test double
 * here: it wraps the real KafkaBus and, while `down`, fails every publish: half of them before they
 * reach Kafka (broker unreachable) and half after Kafka stored them (the acknowledgement lost on
 * the way back), so the retries also produce real duplicates in Kafka that ClickHouse must collapse.
 */
class OutageBus implements Bus {
  readonly kind = 'kafka' as const;
  down = false;
  private failures = 0;
  /** Publishes Kafka stored although the caller was told they failed. */
  storedButFailed = 0;
  /** positions.v1 ids whose publish Kafka confirmed and the caller was told so. */
  readonly confirmed = new Set<number>();

  constructor(private readonly inner: Bus) {}

  async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (this.down) {
      if (++this.failures % 2 === 0) {
        await this.inner.publish(topic, messages);
        this.storedButFailed++;
      }
      throw new Error('NetworkError: Connection closed (simulated outage)');
    }
    await this.inner.publish(topic, messages);
    if (topic === Topics.positions) for (const m of messages) this.confirmed.add((m.value as PositionMessage).id);
  }

  ensureTopics(topics: TopicSpec[]): Promise<void> {
    return this.inner.ensureTopics(topics);
  }
  subscribe(opts: SubscribeOptions): Promise<Subscription> {
    return this.inner.subscribe(opts);
  }
  ping(): Promise<void> {
    return this.down ? Promise.reject(new Error('simulated outage')) : this.inner.ping();
  }
  producerStatus(): ProducerStatus {
    return this.down ? { state: 'failing', lastError: 'simulated outage', restarts: 0 } : this.inner.producerStatus();
  }
  async close(): Promise<void> {}
}

/** A GT06 tracker that keeps reporting whatever happens and notes when each ack arrived. */
class StreamingTracker {
  readonly sent = new Map<number, { positionId: number; sentAt: number }>();
  readonly acked = new Map<number, { ackAt: number; confirmedFirst: boolean }>();
  private serial = 1;
  private parsed = 0;

  constructor(
    readonly device: TestDevice,
    readonly deviceId: number,
    readonly imei: string,
    private readonly bus: OutageBus,
  ) {}

  /** From login on, acks are read the moment they arrive. */
  private listen(): void {
    this.device.onData = () => this.collect();
  }

  async login(): Promise<void> {
    await this.device.write(gt06.login(this.imei, this.serial++));
    await this.device.waitReceived(10);
    this.parsed = 10;
    this.listen();
  }

  async report(fix: Date, lat: number, lon: number): Promise<void> {
    const serial = this.serial++;
    this.sent.set(serial, { positionId: positionId(this.deviceId, fix), sentAt: Date.now() });
    await this.device.write(gt06.location(fix, lat, lon, serial));
  }

  /** Reads the acks that arrived since the last call (10 bytes each, serial at offset 4), noting whether Kafka had confirmed the frame. */
  collect(): void {
    while (this.device.received.length - this.parsed >= 10) {
      const serial = this.device.received.readUInt16BE(this.parsed + 4);
      const frame = this.sent.get(serial);
      this.acked.set(serial, { ackAt: Date.now(), confirmedFirst: frame !== undefined && this.bus.confirmed.has(frame.positionId) });
      this.parsed += 10;
    }
  }
}

const kafka = process.env.KAFKA_BROKERS;
const IMEIS = ['359710040000001', '359710040000002', '359710040000003', '359710040000004', '359710040000005'];
const FIRST_DEVICE = 5101;

let adapters: TestAdapters;
let bus: OutageBus;
let svc: IngestService;
let port: number;

// outside CI it needs a broker in the environment; in CI it always runs (createTestAdapters fails without one)
describe.runIf(kafka || inCI())('Kafka outage while devices stream over TCP', () => {
  beforeAll(async () => {
    adapters = await createTestAdapters('real');
    bus = new OutageBus(adapters.bus);
    svc = await build({
      ...adapters,
      bus,
      identitySecret: 'kafka-outage-test-secret-0123456789',
      settings: { MAX_BUFFERED_BYTES: 10 * 36 },
      tuning: { retry: { initialMs: 50, maxMs: 250 } },
    });
    await svc.start();
    IMEIS.forEach((imei, i) => svc.registry.apply(registryEntry(FIRST_DEVICE + i, imei)));
    port = await svc.ports.tcp.gt06.listen(0, '127.0.0.1');
  });

  afterAll(async () => {
    if (bus) bus.down = false;
    await svc?.close();
    await adapters?.close();
  });

  it('acknowledges only what Kafka confirmed, and every acknowledged position is stored exactly once', async () => {
    const trackers = await Promise.all(
      IMEIS.map(async (imei, i) => new StreamingTracker(await TestDevice.open(port), FIRST_DEVICE + i, imei, bus)),
    );
    for (const t of trackers) await t.login();
    const quitter = trackers[4]!; // gives up during the outage, as a device whose connection drops does

    const t0 = Date.UTC(2025, 5, 1, 6, 0, 0);
    let tick = 0;
    let downAt = Infinity;
    let upAt = Infinity;
    let quit = false;
    // each phase ends on what it must have produced, never after a duration: the outage starts once
    // acks flow for every tracker, the quitter leaves once it sent into the outage, the outage ends
    // once it failed publishes that Kafka stored and every tracker sent into it, and the trackers
    // keep reporting until frames sent after it are acknowledged for each of them
    const staying = trackers.slice(0, 4);
    const sentAfter = (t: StreamingTracker, at: number) => [...t.sent.values()].filter((f) => f.sentAt > at).length;
    const ackedSentAfter = (t: StreamingTracker, at: number) =>
      [...t.acked.keys()].filter((serial) => t.sent.get(serial)!.sentAt > at).length;
    for (;;) {
      if (upAt !== Infinity && staying.every((t) => ackedSentAfter(t, upAt) >= 3)) break;
      if (downAt === Infinity && trackers.every((t) => t.acked.size >= 3)) {
        bus.down = true;
        downAt = Date.now();
      }
      if (!quit && sentAfter(quitter, downAt) >= 2) {
        quit = true;
        quitter.device.close();
      }
      if (upAt === Infinity && quit && bus.storedButFailed > 0 && staying.every((t) => sentAfter(t, downAt) >= 5)) {
        bus.down = false;
        upAt = Date.now();
      }
      const fix = new Date(t0 + tick * 1000);
      for (const [i, t] of trackers.entries()) {
        if (t === quitter && quit) continue;
        await t.report(fix, -1.3 - i / 100 - tick / 10_000, 36.8 + tick / 10_000);
      }
      tick++;
      // the trackers' report interval: the scenario's clock (how often a device sends), not a wait for an outcome
      await sleep(20);
    }

    await waitFor(
      () => staying.every((t) => t.acked.size === t.sent.size),
      180_000,
      'every frame of the connected devices acknowledged after the outage',
    );

    expect(bus.storedButFailed).toBeGreaterThan(0); // the outage really produced duplicates in Kafka
    for (const t of trackers) {
      for (const [serial, ack] of t.acked) {
        expect(ack.confirmedFirst, `device ${t.deviceId} serial ${serial} acked before Kafka confirmed it`).toBe(true);
        const sentAt = t.sent.get(serial)!.sentAt;
        if (sentAt > downAt)
          expect(ack.ackAt, `device ${t.deviceId} serial ${serial} acked during the outage`).toBeGreaterThanOrEqual(upAt);
      }
    }
    // the device that left during the outage got no ack for what it sent after the broker went away
    const sentDuringOutage = [...quitter.sent].filter(([, f]) => f.sentAt > downAt).map(([s]) => s);
    expect(sentDuringOutage.length).toBeGreaterThan(0);
    for (const s of sentDuringOutage) expect(quitter.acked.has(s)).toBe(false);

    // ClickHouse, after dedupe: every acknowledged position exactly once
    const count = countPositions(adapters.analytics);
    for (const t of staying) {
      await waitFor(async () => (await count([t.deviceId])) >= t.acked.size, 180_000, `positions of ${t.deviceId} stored`);
      expect(await count([t.deviceId])).toBe(t.acked.size);
    }
    const rs = await adapters.analytics.client.query({
      query: `SELECT id, count() AS n FROM ${adapters.analytics.database}.positions FINAL WHERE device_id IN {ids:Array(UInt64)} GROUP BY id`,
      query_params: { ids: trackers.map((t) => t.deviceId) },
      format: 'JSONEachRow',
    });
    const stored = new Map((await rs.json<{ id: string | number; n: string | number }>()).map((r) => [Number(r.id), Number(r.n)]));
    for (const t of trackers) {
      for (const serial of t.acked.keys())
        expect(stored.get(t.sent.get(serial)!.positionId), `device ${t.deviceId} serial ${serial}`).toBe(1);
    }
    for (const t of staying) t.device.close();
  }, 600_000);
});
