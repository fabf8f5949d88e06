import { NetworkError, Producer } from '@platformatic/kafka';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { KafkaBus } from '../src/adapters/bus-kafka';
import { createLogger } from '../src/logger';
import { eventually } from '../src/testing/eventually';
import { inCI, realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';

/**
 * The Kafka bus's producer lanes (issue 28, KafkaBus sendsInFlight, KAFKA_SENDS_IN_FLIGHT; off by
 * default): publishes of different keys go out in sends that are in flight side by side, while each
 * key's messages keep their order, also when sends fail and the publisher retries (as ingest does,
 * holding the device's ack).
 *
 * The failed sends are injected: a wrapper around the client's Producer.send rejects some sends with
 * the client's own retriable NetworkError before they reach the broker (the shared broker cannot be
 * cut for one test; tools/stack/kafka-faults.e2e.test.ts and services/ingest/test/kafka-broker-restart.test.ts
 * stop real brokers under load). The wrapper also counts the sends in flight.
 */
const kafka = await realPart('kafka');
if (kafka) describe('the Kafka bus with several sends in flight', suite);
else {
  describe('the Kafka bus with several sends in flight (no Kafka here)', () => {
    it('runs where KAFKA_BROKERS names a broker (always in CI)', () => {
      expect(inCI()).toBe(false);
    });
  });
}

interface Seq {
  key: string;
  n: number;
}

function suite(): void {
  const brokers = kafka!.url.split(',');
  const logger = createLogger('test', 'silent');
  const buses: KafkaBus[] = [];
  /** A bus with `sendsInFlight` lanes; undefined: the default. */
  const newBus = (sendsInFlight: number | undefined): KafkaBus => {
    const bus = new KafkaBus({
      brokers,
      clientId: uniqueName('lanes'),
      logger,
      ...(sendsInFlight ? { sendsInFlight } : {}),
      producerRetry: { initialMs: 50, maxMs: 200 },
    });
    buses.push(bus);
    return bus;
  };
  afterEach(() => vi.restoreAllMocks());
  afterAll(async () => {
    await Promise.all(buses.map((b) => b.close()));
  });

  /** Counts the client's sends in flight (the most at once), and fails every `failEvery`-th send before it reaches the broker. */
  function watchSends(failEvery = 0): { maxInFlight: () => number; failed: () => number } {
    const send = Producer.prototype.send;
    let inFlight = 0;
    let most = 0;
    let calls = 0;
    let failed = 0;
    vi.spyOn(Producer.prototype, 'send').mockImplementation(function (this: Producer, ...args: Parameters<Producer['send']>) {
      calls++;
      if (failEvery && calls % failEvery === 0) {
        failed++;
        return Promise.reject(new NetworkError('injected: connection lost before the send'));
      }
      inFlight++;
      most = Math.max(most, inFlight);
      const sent = send.apply(this, args) as unknown as Promise<unknown>;
      void sent.then(
        () => inFlight--,
        () => inFlight--,
      );
      return sent as never;
    } as never);
    return { maxInFlight: () => most, failed: () => failed };
  }

  /**
   * KEYS publishers side by side, each publishing its key's 0..PER_KEY-1 one at a time and retrying
   * a publish that failed until it is confirmed (ingest's way: the next fix of a device waits for the
   * previous one's confirmation); then reads the topic back.
   */
  async function publishAndRead(bus: KafkaBus, keys: number, perKey: number): Promise<Map<string, number[]>> {
    const topic = uniqueName('t_lanes');
    await bus.ensureTopics([{ name: topic, partitions: 6 }]);
    await Promise.all(
      Array.from({ length: keys }, async (_, k) => {
        for (let n = 0; n < perKey; n++) {
          for (;;) {
            const ok = await bus.publish(topic, [{ key: `dev-${k}`, value: { key: `dev-${k}`, n } satisfies Seq }]).then(
              () => true,
              () => false,
            );
            if (ok) break;
          }
        }
      }),
    );
    const got = new Map<string, number[]>();
    let count = 0;
    const sub = await bus.subscribe({
      groupId: uniqueName('g'),
      topics: [topic],
      fromBeginning: true,
      handler: async (ms) => {
        for (const m of ms) {
          const v = JSON.parse(m.value) as Seq;
          got.set(v.key, [...(got.get(v.key) ?? []), v.n]);
          count++;
        }
      },
    });
    await eventually('every message read back', () => count >= keys * perKey);
    await sub.stop();
    return got;
  }

  it('has sends of different keys in flight side by side, each key in order', async () => {
    const sends = watchSends();
    const got = await publishAndRead(newBus(4), 24, 20);
    expect(sends.maxInFlight()).toBeGreaterThanOrEqual(2);
    expect(sends.maxInFlight()).toBeLessThanOrEqual(4);
    for (let k = 0; k < 24; k++) expect(got.get(`dev-${k}`)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  }, 120_000);

  it('keeps each key in order, nothing lost, when sends fail and the publishers retry', async () => {
    const sends = watchSends(5);
    const got = await publishAndRead(newBus(4), 24, 20);
    expect(sends.failed()).toBeGreaterThan(0);
    // a failed send never reached the broker: each key exactly once, in order
    for (let k = 0; k < 24; k++) expect(got.get(`dev-${k}`)).toEqual(Array.from({ length: 20 }, (_, n) => n));
  }, 120_000);

  it('by default one send at a time (KAFKA_SENDS_IN_FLIGHT=1)', async () => {
    const sends = watchSends();
    const got = await publishAndRead(newBus(undefined), 24, 5);
    expect(sends.maxInFlight()).toBe(1);
    for (let k = 0; k < 24; k++) expect(got.get(`dev-${k}`)).toEqual(Array.from({ length: 5 }, (_, n) => n));
  }, 120_000);
}
