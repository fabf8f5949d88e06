import { Gauge } from 'prom-client';
import { counter, registry } from '../metrics';
import type { Subscription } from './bus';

/**
 * The consumers alive in this process (every bus adds its subscriptions and removes them on
 * stop), and their metrics: restarts after a crash, whether each is running, and each group's lag
 * per topic, read from the bus when Prometheus scrapes.
 */
export const liveConsumers = new Set<Subscription>();

/**
 * `by`: who restarted the consumer. Always `supervisor` since issue 27: the bus starts a new client
 * consumer after every crash (kafkajs used to restart some itself, counted as `kafkajs`). Kept as a
 * label so dashboards built on it keep working.
 */
export const consumerRestarts = counter(
  'consumer_restarts_total',
  'Consumers restarted after a crash (a handler error, or an error the Kafka client gave up on), by who restarted them (the supervisor)',
  ['group', 'by'],
);

/** How long a scrape waits for one group's lag before leaving it out. */
const LAG_SCRAPE_TIMEOUT_MS = 2000;

function collectedGauge(name: string, help: string, labelNames: string[], collect: (g: Gauge) => Promise<void> | void): void {
  if (registry.getSingleMetric(name)) return;
  new Gauge({
    name,
    help,
    labelNames,
    registers: [registry],
    async collect() {
      await collect(this);
    },
  });
}

collectedGauge('consumer_running', 'Consumers of a group in this process that are running (joined and consuming)', ['group'], (g) => {
  g.reset();
  const running = new Map<string, number>();
  for (const sub of liveConsumers) running.set(sub.groupId, (running.get(sub.groupId) ?? 0) + (sub.status().state === 'running' ? 1 : 0));
  for (const [group, n] of running) g.set({ group }, n);
});

collectedGauge(
  'consumer_lag',
  "Messages a consumer group has yet to consume, per topic (newest offsets minus the group's committed offsets)",
  ['group', 'topic'],
  async (g) => {
    g.reset();
    const byGroup = new Map<string, Subscription>();
    for (const sub of liveConsumers) byGroup.set(sub.groupId, sub); // members of one group share its lag
    await Promise.all(
      [...byGroup].map(async ([group, sub]) => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const lag = await Promise.race([
            sub.lag(),
            new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('timeout')), LAG_SCRAPE_TIMEOUT_MS))),
          ]);
          for (const [topic, n] of Object.entries(lag)) g.set({ group, topic }, n);
        } catch {
          // the bus cannot tell now (broker down): the series is absent rather than stale
        } finally {
          clearTimeout(timer);
        }
      }),
    );
  },
);
