/**
 * Repeats `round` (which handles `perRound` items: frames, messages) `warmup` times, then in
 * batches of `batch` until `runMs` have passed; returns items per second (the clock is read once a
 * batch, so a batch should take well under a millisecond or two).
 */
export function itemsPerSecond(perRound: number, round: () => void, opts: { runMs: number; warmup: number; batch: number }): number {
  for (let i = 0; i < opts.warmup; i++) round();
  let rounds = 0;
  const start = process.hrtime.bigint();
  const deadline = start + BigInt(opts.runMs) * 1_000_000n;
  let now = start;
  while (now < deadline) {
    for (let i = 0; i < opts.batch; i++) round();
    rounds += opts.batch;
    now = process.hrtime.bigint();
  }
  return (rounds * perRound) / (Number(now - start) / 1e9);
}
