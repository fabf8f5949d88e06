/** Deterministic pseudo-random numbers (mulberry32) so generated tracks and benchmarks repeat exactly. */
export interface SeededRandom {
  /** uniform in [0, 1) */
  next(): number;
  /** uniform in [min, max) */
  between(min: number, max: number): number;
  /** normal distribution with mean 0 and the given standard deviation (Box–Muller) */
  gaussian(sigma: number): number;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    between: (min, max) => min + (max - min) * next(),
    gaussian: (sigma) => {
      const u = Math.max(next(), 1e-12);
      const v = next();
      return sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    },
  };
}
