import { describe, expect, it } from 'vitest';
import { dayBoundaries, nextMidnight, offsetAt } from './calendar-days';

const t = (iso: string): number => Date.parse(iso);
const isos = (ms: number[]): string[] => ms.map((m) => new Date(m).toISOString());

describe('calendar days in a time zone', () => {
  it('finds local midnights in UTC and in East Africa Time (UTC+3)', () => {
    expect(isos(dayBoundaries(t('2026-03-01T10:00:00Z'), t('2026-03-03T10:00:00Z'), 'UTC'))).toEqual([
      '2026-03-02T00:00:00.000Z',
      '2026-03-03T00:00:00.000Z',
    ]);
    expect(isos(dayBoundaries(t('2026-03-01T10:00:00Z'), t('2026-03-03T10:00:00Z'), 'Africa/Nairobi'))).toEqual([
      '2026-03-01T21:00:00.000Z',
      '2026-03-02T21:00:00.000Z',
    ]);
    expect(offsetAt(t('2026-03-01T10:00:00Z'), 'Africa/Nairobi')).toBe(3 * 3600_000);
  });

  it('follows daylight-saving changes (Europe/Berlin, 29 March 2026)', () => {
    expect(isos([nextMidnight(t('2026-03-28T12:00:00Z'), 'Europe/Berlin')])).toEqual(['2026-03-28T23:00:00.000Z']);
    expect(isos([nextMidnight(t('2026-03-29T12:00:00Z'), 'Europe/Berlin')])).toEqual(['2026-03-29T22:00:00.000Z']);
  });

  it('gives none inside one day and counts an exact midnight at the end', () => {
    expect(dayBoundaries(t('2026-03-01T01:00:00Z'), t('2026-03-01T23:00:00Z'), 'UTC')).toEqual([]);
    expect(isos(dayBoundaries(t('2026-03-01T01:00:00Z'), t('2026-03-02T00:00:00Z'), 'UTC'))).toEqual(['2026-03-02T00:00:00.000Z']);
  });
});
