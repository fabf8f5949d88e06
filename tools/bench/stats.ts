/** The q-quantile (0..1) of ascending `sorted` values (nearest rank); NaN when empty. */
export const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Two decimals, for figures in bench/results. */
export const round = (v: number): number => Math.round(v * 100) / 100;

/** The arithmetic mean; NaN when empty. */
export const mean = (vs: number[]): number => vs.reduce((a, b) => a + b, 0) / vs.length;

/** The median (the mean of the two middle values for an even count); NaN when empty. */
export const median = (vs: number[]): number => {
  const sorted = [...vs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : ((sorted[mid - 1] ?? NaN) + (sorted[mid] ?? NaN)) / 2;
};

/**
 * The q-quantile (ms) of a histogram's observations between two snapshots of its cumulative bucket
 * counts (upper bound in seconds -> count), interpolated within its bucket; NaN when none.
 */
export function bucketQuantile(before: Map<number, number>, after: Map<number, number>, q: number): number {
  const bounds = [...after.keys()].sort((a, b) => a - b);
  const count = (le: number): number => (after.get(le) ?? 0) - (before.get(le) ?? 0);
  const total = count(Infinity);
  if (!total) return NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const le of bounds) {
    const c = count(le);
    if (c >= rank) {
      if (le === Infinity) return prevLe * 1000;
      return (prevLe + ((rank - prevCount) / Math.max(1, c - prevCount)) * (le - prevLe)) * 1000;
    }
    prevLe = le;
    prevCount = c;
  }
  return NaN;
}
