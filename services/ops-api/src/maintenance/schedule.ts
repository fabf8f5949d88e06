/**
 * When a maintenance is next due, Traccar-style: first at `start`, then every `period` after it.
 * At exactly a due value the maintenance counts as done-by-now and the next one is due. Null when it
 * cannot be told: a maintenance stored before the contract bounded its numbers (a period of 5e-324
 * overflows to Infinity, which made the schedule answer 500) or a value past the float range.
 */
export function nextDue(start: number, period: number, current: number): number | null {
  if (!Number.isFinite(start) || !Number.isFinite(current) || !Number.isFinite(period) || period <= 0) return null;
  if (current < start) return start;
  const due = start + (Math.floor((current - start) / period) + 1) * period;
  return Number.isFinite(due) && due > current ? due : null;
}
