import { describe, expect, it } from 'vitest';
import { isTimeZone, wallClockToUtc } from './zone-time';

const at = (year: number, month: number, day: number, hour: number, minute = 0) => ({ year, month, day, hour, minute, second: 0 });
const iso = (ms: number) => new Date(ms).toISOString();

describe('wall-clock times in IANA zones', () => {
  it('knows the zones the runtime knows', () => {
    expect(isTimeZone('Africa/Nairobi')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('E. Africa Standard Time')).toBe(false);
    expect(() => wallClockToUtc(at(2026, 1, 5, 8), 'Mars/Olympus')).toThrow(RangeError);
  });

  it("converts with the zone's offset, which may change during the year", () => {
    expect(iso(wallClockToUtc(at(2026, 1, 5, 8), 'Africa/Nairobi'))).toBe('2026-01-05T05:00:00.000Z');
    expect(iso(wallClockToUtc(at(2026, 7, 5, 8), 'Africa/Dar_es_Salaam'))).toBe('2026-07-05T05:00:00.000Z');
    expect(iso(wallClockToUtc(at(2026, 3, 6, 9), 'America/New_York'))).toBe('2026-03-06T14:00:00.000Z'); // EST
    expect(iso(wallClockToUtc(at(2026, 3, 9, 9), 'America/New_York'))).toBe('2026-03-09T13:00:00.000Z'); // EDT
    expect(iso(wallClockToUtc(at(2026, 12, 31, 23, 59), 'UTC'))).toBe('2026-12-31T23:59:00.000Z');
  });

  it('reads a skipped time with the offset before the jump and a repeated time as its first occurrence (RFC 5545 3.3.5)', () => {
    // London springs forward at 01:00 GMT on 2026-03-29: 01:30 does not exist
    expect(iso(wallClockToUtc(at(2026, 3, 29, 1, 30), 'Europe/London'))).toBe('2026-03-29T01:30:00.000Z');
    // and falls back at 01:00 GMT on 2026-10-25: 01:30 happens twice, first in BST
    expect(iso(wallClockToUtc(at(2026, 10, 25, 1, 30), 'Europe/London'))).toBe('2026-10-25T00:30:00.000Z');
    expect(iso(wallClockToUtc(at(2026, 10, 25, 2, 30), 'Europe/London'))).toBe('2026-10-25T02:30:00.000Z');
  });
});
