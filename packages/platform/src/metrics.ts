import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  Registry,
  collectDefaultMetrics,
  type MetricObjectWithValues,
  type MetricValue,
} from 'prom-client';

/**
 * One registry per process (the one-process stack shares it; each metric name is created once
 * and reused, so services built twice in tests do not collide).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export function counter<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Counter<L>;
  return new Counter({ name, help, labelNames, registers: [registry] });
}

export function gauge<L extends string>(name: string, help: string, labelNames: readonly L[] = []): Gauge<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Gauge<L>;
  return new Gauge({ name, help, labelNames, registers: [registry] });
}

export function histogram<L extends string>(
  name: string,
  help: string,
  labelNames: readonly L[] = [],
  buckets: number[] = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
): Histogram<L> {
  const existing = registry.getSingleMetric(name);
  if (existing) return existing as Histogram<L>;
  return new Histogram({ name, help, labelNames, buckets, registers: [registry] });
}

/** A registry's metrics as JSON (what a worker thread hands the thread serving /metrics). */
export type MetricsJson = MetricObjectWithValues<MetricValue<string>>[];
const threadSources = new Set<() => Promise<MetricsJson>>();

/**
 * Adds the metrics of another thread of this process (a worker thread's registry as JSON) to what
 * /metrics answers; returns the function that removes it. Counters and histograms of the same name
 * add up across threads; process-wide metrics (process_*, nodejs_*) are this thread's only.
 */
export function addThreadMetrics(source: () => Promise<MetricsJson>): () => void {
  threadSources.add(source);
  return () => threadSources.delete(source);
}

/** This thread's metrics as JSON without the process-wide ones, for the thread that serves /metrics (addThreadMetrics). */
export async function threadMetricsJson(): Promise<MetricsJson> {
  return (await registry.getMetricsAsJSON()).filter((m) => !m.name.startsWith('process_') && !m.name.startsWith('nodejs_')) as MetricsJson;
}

/** The Prometheus text of this thread's registry and of every other thread added. */
export async function processMetrics(): Promise<string> {
  if (!threadSources.size) return registry.metrics();
  const others = await Promise.all([...threadSources].map((s) => s().catch(() => [] as MetricsJson)));
  return AggregatorRegistry.aggregate([(await registry.getMetricsAsJSON()) as MetricsJson, ...others]).metrics();
}
