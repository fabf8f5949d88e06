import { registry } from '@corridor/platform';

/** Current value of a counter or gauge sample with exactly these labels (0 when absent). */
export async function metricValue(name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const match = values.find((v) => {
    const l = v.labels as Record<string, string | number | undefined>;
    return Object.entries(labels).every(([k, want]) => String(l[k]) === want) && !('le' in l);
  });
  return match?.value ?? 0;
}

/** Sample count of a histogram with these labels. */
export async function histogramCount(name: string, labels: Record<string, string>): Promise<number> {
  const metric = registry.getSingleMetric(name);
  if (!metric) return 0;
  const { values } = await metric.get();
  const match = values.find(
    (v) =>
      (v as { metricName?: string }).metricName === `${name}_count` &&
      Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
  );
  return match?.value ?? 0;
}
