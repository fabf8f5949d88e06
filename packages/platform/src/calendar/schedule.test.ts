import { describe, expect, it } from 'vitest';
import { CalendarSchedule, MAX_OCCURRENCES, OccurrenceSeries } from './schedule';

const HOUR = 3_600_000;

/** A series starting every `every` ms from 0, counting how many starts it was asked for. */
function counted(every: number, duration: number, count = Infinity) {
  let produced = 0;
  const series = new OccurrenceSeries(duration, () => (produced < count ? every * produced++ : undefined));
  return { series, produced: () => produced };
}

describe('OccurrenceSeries', () => {
  it('lists the occurrences that ended in (after, upTo], for scheduled reports', () => {
    const { series } = counted(24 * HOUR, 8 * HOUR);
    expect(series.endingIn(0, 8 * HOUR)).toEqual([{ start: 0, end: 8 * HOUR }]);
    expect(series.endingIn(8 * HOUR, 32 * HOUR - 1)).toEqual([]); // ended exactly at `after`; the next not yet
    expect(series.endingIn(0, 56 * HOUR)).toEqual([0, 1, 2].map((d) => ({ start: d * 24 * HOUR, end: d * 24 * HOUR + 8 * HOUR })));
    const two = new CalendarSchedule([counted(24 * HOUR, 8 * HOUR).series, counted(12 * HOUR, HOUR).series]);
    expect(two.endedBetween(0, 14 * HOUR).map((o) => o.end)).toEqual([HOUR, 8 * HOUR, 13 * HOUR]);
  });

  it('covers [start, start + duration) of each occurrence', () => {
    const { series } = counted(24 * HOUR, 8 * HOUR);
    expect(series.covers(0)).toBe(true);
    expect(series.covers(8 * HOUR - 1)).toBe(true);
    expect(series.covers(8 * HOUR)).toBe(false);
    expect(series.covers(48 * HOUR + 1)).toBe(true);
    expect(series.covers(-1)).toBe(false);
  });

  it('expands each occurrence once, however many times it is asked and in whatever order', () => {
    const { series, produced } = counted(HOUR, HOUR / 2);
    for (let t = 0; t < 1000 * HOUR; t += HOUR / 4) series.covers(t);
    expect(produced()).toBe(1001); // the occurrences up to the last asked time, plus the one after it
    expect(series.covers(10 * HOUR + 1)).toBe(true); // earlier times: a search, no expansion
    expect(series.covers(10 * HOUR + HOUR / 2)).toBe(false);
    expect(produced()).toBe(1001);
  });

  it('ends with its last occurrence, and stops expanding at MAX_OCCURRENCES', () => {
    const { series } = counted(HOUR, HOUR, 3);
    expect(series.covers(2 * HOUR + 1)).toBe(true);
    expect(series.covers(3 * HOUR)).toBe(false);
    const endless = counted(1000, 500);
    expect(endless.series.covers(1000 * (MAX_OCCURRENCES + 10))).toBe(false);
    expect(endless.produced()).toBe(MAX_OCCURRENCES);
  });

  it('keeps starts sorted when one comes out of order', () => {
    // a repeated wall-clock hour: the start read as its first occurrence is earlier than the one before it
    const starts = [0, 100, 50, 300];
    const series = new OccurrenceSeries(10, () => starts.shift());
    expect(series.covers(305)).toBe(true);
    expect(series.covers(55)).toBe(true);
    expect(series.covers(105)).toBe(true);
    expect(series.covers(65)).toBe(false);
  });

  it('never covers with a zero duration', () => {
    expect(counted(HOUR, 0).series.covers(0)).toBe(false);
  });
});

describe('CalendarSchedule', () => {
  it('is active when any of its events runs', () => {
    const a = counted(24 * HOUR, HOUR).series;
    const b = new OccurrenceSeries(
      HOUR,
      (() => {
        let done = false;
        return () => (done ? undefined : ((done = true), 5 * HOUR));
      })(),
    );
    const schedule = new CalendarSchedule([a, b]);
    expect(schedule.activeAt(new Date(30 * 60_000))).toBe(true);
    expect(schedule.activeAt(5 * HOUR + 1)).toBe(true);
    expect(schedule.activeAt(3 * HOUR)).toBe(false);
    expect(schedule.activeAt(Number.NaN)).toBe(false);
    expect(schedule.events).toBe(2);
  });
});
