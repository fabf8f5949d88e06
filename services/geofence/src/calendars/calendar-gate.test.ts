import { describe, expect, it } from 'vitest';
import { MemoryCache, cacheKeys, createLogger, registry } from '@corridor/platform';
import type { CalendarDefinition } from '@corridor/platform/calendar/definition';
import { officeHoursIcs } from '../../test/office-hours';
import { CalendarGate } from './calendar-gate';

const logger = createLogger('test', 'silent');
const at = (iso: string) => Date.parse(iso);
// Monday 11 May 2026; Nairobi is UTC+3 all year
const MON_0759 = at('2026-05-11T04:59:00Z');
const MON_0900 = at('2026-05-11T06:00:00Z');
const MON_1700 = at('2026-05-11T14:00:00Z');
const SAT_0900 = at('2026-05-16T06:00:00Z');

async function setup(defs: CalendarDefinition[] | string | null) {
  const cache = new MemoryCache();
  if (defs !== null) await cache.set(cacheKeys.calendars(), typeof defs === 'string' ? defs : JSON.stringify(defs));
  let now = 0;
  const gate = new CalendarGate({ cache, logger, reloadMs: 1000, now: () => now });
  await gate.refresh();
  return {
    cache,
    gate,
    advance: (ms: number) => {
      now += ms;
    },
  };
}

async function problems(kind: string): Promise<number> {
  const metric = await registry.getSingleMetric('geofence_calendar_problems_total')?.get();
  return metric?.values.find((v) => v.labels.kind === kind)?.value ?? 0;
}

describe('CalendarGate', () => {
  it("is active inside the weekly window and not outside it, in the calendar's time zone", async () => {
    const { gate } = await setup([{ id: 1, data: officeHoursIcs() }]);
    expect(gate.activeAt(1, MON_0900)).toBe(true);
    expect(gate.activeAt(1, MON_0759)).toBe(false);
    expect(gate.activeAt(1, MON_1700)).toBe(false); // 17:00 ends the window
    expect(gate.activeAt(1, MON_1700 - 1)).toBe(true);
    expect(gate.activeAt(1, SAT_0900)).toBe(false);
  });

  it('counts an unknown or unparseable calendar as active, and says so', async () => {
    const { gate } = await setup([{ id: 2, data: Buffer.from('not a calendar').toString('base64') }]);
    const before = await problems('unknown');
    expect(gate.activeAt(99, SAT_0900)).toBe(true);
    expect(gate.activeAt(2, SAT_0900)).toBe(true);
    expect(await problems('unknown')).toBe(before + 2);
    expect(gate.size).toBe(1);
  });

  it('takes a changed calendar at the next reload, not before', async () => {
    const { cache, gate, advance } = await setup([{ id: 1, data: officeHoursIcs() }]);
    await cache.set(
      cacheKeys.calendars(),
      JSON.stringify([
        { id: 1, data: officeHoursIcs({ days: 'SA' }) },
        { id: 3, data: officeHoursIcs() },
      ]),
    );
    advance(999);
    await gate.refresh();
    expect(gate.activeAt(1, SAT_0900)).toBe(false);
    advance(1);
    await gate.refresh();
    expect(gate.activeAt(1, SAT_0900)).toBe(true);
    expect(gate.activeAt(1, MON_0900)).toBe(false);
    expect(gate.activeAt(3, MON_0900)).toBe(true);
    // a deleted calendar is unknown: its fences count as active again
    await cache.set(cacheKeys.calendars(), JSON.stringify([{ id: 3, data: officeHoursIcs() }]));
    advance(1000);
    await gate.refresh();
    expect(gate.activeAt(1, MON_0900)).toBe(true);
    expect(gate.activeAt(1, at('2026-05-17T00:00:00Z'))).toBe(true);
  });

  it('keeps the calendars last read when the list goes missing, is malformed, or the cache fails', async () => {
    const { cache, gate, advance } = await setup([{ id: 1, data: officeHoursIcs() }]);
    const loads = await problems('load');
    for (const broken of [
      async () => cache.del(cacheKeys.calendars()),
      async () => cache.set(cacheKeys.calendars(), '{not json'),
      async () => cache.set(cacheKeys.calendars(), '[{"id":"x"}]'),
    ]) {
      await broken();
      advance(1000);
      await gate.refresh();
      expect(gate.activeAt(1, SAT_0900)).toBe(false);
    }
    expect(await problems('load')).toBe(loads + 3);
    const failing = new CalendarGate({
      cache: {
        ...cache,
        get: async () => {
          throw new Error('Redis down');
        },
      } as unknown as MemoryCache,
      logger,
    });
    await expect(failing.refresh()).resolves.toBeUndefined();
    expect(failing.size).toBe(0);
  });

  it('starts with no calendars when none were ever published', async () => {
    const { gate } = await setup(null);
    expect(gate.size).toBe(0);
    expect(gate.activeAt(1, SAT_0900)).toBe(true);
  });
});
