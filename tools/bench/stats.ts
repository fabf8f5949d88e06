/** The q-quantile (0..1) of ascending `sorted` values (nearest rank); NaN when empty. */
export const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

/** Two decimals, for figures in bench/results. */
export const round = (v: number): number => Math.round(v * 100) / 100;
