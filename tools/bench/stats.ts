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
