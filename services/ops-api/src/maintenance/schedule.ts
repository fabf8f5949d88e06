/**
 * When a maintenance is next due, Traccar-style: first at `start`, then every `period` after it.
 * At exactly a due value the maintenance counts as done-by-now and the next one is due.
 */
export function nextDue(start: number, period: number, current: number): number {
  if (current < start) return start;
  return start + (Math.floor((current - start) / period) + 1) * period;
}
