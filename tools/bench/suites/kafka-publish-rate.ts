/**
 * The Kafka bus's publish latency at an offered rate, as ingest publishes (issue 28: the real parts'
 * ack p99 at 50 % of Traccar's saturation): DEVICES keys, each publishing one position-sized message
 * at its share of RATE messages/s and awaiting it before its next (a device's next fix waits for the
 * previous one's confirmation, ingest's device lock), for SECONDS, on the shared broker of
 * KAFKA_BROKERS. Buses with 1 and with KAFKA_SENDS_IN_FLIGHT_B (default 4) sends in flight
 * (KafkaBus sendsInFlight) alternate ROUNDS times in this process: publish p50/p99 (call to acks=all
 * confirmation), the wait before the send and the send's round trip (the bus's histograms), sends,
 * and the load average. A publish that falls behind its schedule is sent at once (the rate is an
 * offer, the achieved rate is recorded).
 */
import { createLogger, KafkaBus, registry } from '@corridor/platform';
import { load1m } from '../parts';
import { samplePosition } from '../sample-position';
import { quantile, round } from '../stats';
import { parseHistograms, phaseFigures } from '../traccar/scraped-histograms';

const DEVICES = Number(process.env.DEVICES ?? 200);
const RATE = Number(process.env.RATE ?? 1250);
const SECONDS = Number(process.env.SECONDS ?? 15);
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const LANES_B = Number(process.env.KAFKA_SENDS_IN_FLIGHT_B ?? 4);
const HISTOGRAMS = ['bus_publish_wait_seconds', 'bus_send_seconds', 'bus_send_messages'] as const;

const fix = (device: number, i: number): object => samplePosition(50_001 + device, i);

async function runOnce(lanes: number, label: string): Promise<Record<string, number>> {
  const brokers = process.env.KAFKA_BROKERS!.split(',');
  const ns = `pubrate${Date.now()}${label}`;
  const bus = new KafkaBus({ brokers, clientId: ns, logger: createLogger('bench', 'error'), namespace: ns, sendsInFlight: lanes });
  try {
    await bus.ensureTopics([{ name: 'positions.v1', partitions: 12 }]);
    // connections and the producers' ids first, not counted
    await bus.publish(
      'positions.v1',
      Array.from({ length: DEVICES }, (_, d) => ({ key: String(50_001 + d), value: fix(d, 0) })),
    );
    const before = parseHistograms(await registry.metrics(), HISTOGRAMS);
    const load = load1m();
    const latencies: number[] = [];
    const interval = (DEVICES / RATE) * 1000;
    const start = performance.now();
    const end = start + SECONDS * 1000;
    await Promise.all(
      Array.from({ length: DEVICES }, async (_, d) => {
        // devices spread over the interval, as trackers are
        let next = start + (d / DEVICES) * interval;
        for (let i = 1; next < end; i++) {
          const wait = next - performance.now();
          if (wait > 0) await new Promise((r) => setTimeout(r, wait));
          const t0 = performance.now();
          await bus.publish('positions.v1', [{ key: String(50_001 + d), value: fix(d, i) }]);
          latencies.push(performance.now() - t0);
          next += interval;
        }
      }),
    );
    const seconds = (performance.now() - start) / 1000;
    const waits = phaseFigures(before, parseHistograms(await registry.metrics(), HISTOGRAMS));
    latencies.sort((a, b) => a - b);
    return {
      load_start: load,
      load_end: load1m(),
      published_per_s: Math.round(latencies.length / seconds),
      publish_p50_ms: round(quantile(latencies, 0.5)),
      publish_p99_ms: round(quantile(latencies, 0.99)),
      publish_max_ms: round(latencies.at(-1) ?? NaN),
      ...waits,
    };
  } finally {
    await bus.close();
  }
}

export default async function run(): Promise<Record<string, number | string>> {
  if (!process.env.KAFKA_BROKERS) throw new Error('KAFKA_BROKERS: this suite measures the Kafka bus');
  const out: Record<string, number | string> = {
    setup: `${DEVICES} keys, one message per publish, each key awaiting its previous; ${RATE} messages/s offered for ${SECONDS} s; sends in flight 1 and ${LANES_B} alternated, ${ROUNDS} rounds; broker ${process.env.KAFKA_BROKERS}`,
  };
  for (let r = 1; r <= ROUNDS; r++) {
    for (const lanes of r % 2 ? [1, LANES_B] : [LANES_B, 1]) {
      const key = `r${r}.in_flight_${lanes}`;
      const figures = await runOnce(lanes, `r${r}l${lanes}`);
      for (const [k, v] of Object.entries(figures)) out[`${key}.${k}`] = v;
      process.stdout.write(
        `  ${key}: ${figures.published_per_s}/s, publish p50/p99 ${figures.publish_p50_ms}/${figures.publish_p99_ms} ms, wait p50/p99 ${figures['bus_publish_wait_seconds.p50_ms']}/${figures['bus_publish_wait_seconds.p99_ms']}, send ${figures['bus_send_seconds.p50_ms']}/${figures['bus_send_seconds.p99_ms']}, sends ${figures['bus_send_seconds.count']} (load ${figures.load_start}-${figures.load_end})\n`,
      );
    }
  }
  return out;
}
