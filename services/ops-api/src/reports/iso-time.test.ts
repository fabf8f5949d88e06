import { describe, expect, it } from 'vitest';
import { isoTimeFormatter } from './iso-time';

describe('isoTimeFormatter', () => {
  it('gives exactly what Date.toISOString gives, in and out of order, across hours, days and years', () => {
    const iso = isoTimeFormatter();
    const base = Date.UTC(2026, 0, 1);
    const samples = [
      0,
      1,
      999,
      59_999,
      3_599_999,
      3_600_000,
      base - 1,
      base,
      base + 30_000,
      Date.UTC(2028, 1, 29, 23, 59, 59, 999),
      253_402_300_799_999,
    ];
    for (let i = 0; i < 20_000; i++) samples.push(base + Math.floor(Math.sin(i) * 4e10), base + i * 30_001);
    for (const ms of samples) expect(iso(ms), String(ms)).toBe(new Date(ms).toISOString());
  });

  it('falls back to Date outside 1970 to 9999 and for fractional milliseconds', () => {
    const iso = isoTimeFormatter();
    for (const ms of [-1, -86_400_001, 253_402_300_800_000, 1.5]) expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});
