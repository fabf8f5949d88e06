/**
 * Times in a time zone for the millions of rows a route file may hold: the zone's offset is worked
 * out once per quarter hour of UTC (offsets change at most at such boundaries in practice) and reused.
 * Returns the instant shifted by the zone's offset: its UTC fields are the zone's wall clock.
 */
const QUARTER = 15 * 60_000;

export function wallClock(timeZone: string): (ms: number) => number {
  if (timeZone === 'UTC') return (ms) => ms;
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number): number => {
    const p = Object.fromEntries(parts.formatToParts(ms).map((x) => [x.type, x.value]));
    const wall = Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second));
    return wall - Math.floor(ms / 1000) * 1000;
  };
  return (ms) => {
    const q = Math.floor(ms / QUARTER);
    let offset = offsets.get(q);
    if (offset === undefined) {
      if (offsets.size > 10_000) offsets.clear();
      offsets.set(q, (offset = offsetAt(q * QUARTER)));
    }
    return ms + offset;
  };
}
