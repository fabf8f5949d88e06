/**
 * Histograms of a running Corridor read from its /metrics (METRICS_PORT), summed over their labels,
 * so that a phase of `pnpm bench traccar` can say where an ack waited (issue 28): ingest's ack
 * latency, the bus's wait for a send and the send's round trip.
 */
import { bucketQuantile, round } from '../stats';

/** Cumulative bucket counts (upper bound in seconds -> count) per histogram name. */
export type Snapshot = Map<string, Map<number, number>>;

const BUCKET = /^([a-zA-Z_:][a-zA-Z0-9_:]*)_bucket\{(.*)\} ([0-9.eE+-]+|NaN)$/;
const LE = /(?:^|,)le="([^"]+)"/;

/** The named histograms' buckets in the exposition text `text`. */
export function parseHistograms(text: string, names: readonly string[]): Snapshot {
  const out: Snapshot = new Map(names.map((n) => [n, new Map<number, number>()]));
  for (const line of text.split('\n')) {
    const m = BUCKET.exec(line);
    const buckets = m && out.get(m[1]!);
    const le = m && LE.exec(m[2]!)?.[1];
    if (!buckets || !le) continue;
    const bound = le === '+Inf' ? Infinity : Number(le);
    buckets.set(bound, (buckets.get(bound) ?? 0) + Number(m[3]));
  }
  return out;
}

/** The named histograms from a /metrics URL; empty when it cannot be read (a system without one). */
export async function scrapeHistograms(url: string, names: readonly string[]): Promise<Snapshot> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
    return parseHistograms(await res.text(), names);
  } catch {
    return new Map();
  }
}

/** p50 and p99 (ms for a *_seconds histogram) and the count of each histogram's observations between two snapshots. */
export function phaseFigures(before: Snapshot, after: Snapshot): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [name, buckets] of after) {
    const was = before.get(name) ?? new Map<number, number>();
    const count = (buckets.get(Infinity) ?? 0) - (was.get(Infinity) ?? 0);
    if (!count) continue;
    // seconds become ms (bucketQuantile's unit); a histogram of counts (bus_send_messages) stays as it is
    const [suffix, scale] = name.endsWith('_seconds') ? ['_ms', 1] : ['', 1 / 1000];
    out[`${name}.count`] = count;
    out[`${name}.p50${suffix}`] = round(bucketQuantile(was, buckets, 0.5) * scale);
    out[`${name}.p99${suffix}`] = round(bucketQuantile(was, buckets, 0.99) * scale);
  }
  return out;
}
