import { afterEach, describe, expect, it } from 'vitest';
import { formatters } from './format';

describe('formatters', () => {
  const RealNumberFormat = Intl.NumberFormat;
  afterEach(() => {
    Intl.NumberFormat = RealNumberFormat;
  });

  it('formats speeds, distances and money in the locale', () => {
    const f = formatters('en');
    expect(f.speedKnots(10)).toMatch(/^19\s?km\/h$/);
    expect(f.distance(1_218_000)).toMatch(/^1,218\s?km$/);
    expect(f.distance(4_250)).toMatch(/^4\.3\s?km$/);
    expect(f.money(12.5, 'USD')).toContain('12.50');
    expect(f.speedKnots(null)).toBe('—');
  });

  it('makes each number format once, not per value (the live map formats 2,000 speeds per update)', () => {
    const f = formatters('en');
    let made = 0;
    Intl.NumberFormat = new Proxy(RealNumberFormat, {
      construct: (target, args: ConstructorParameters<typeof Intl.NumberFormat>) => (made++, new target(...args)),
    });
    for (let k = 0; k < 500; k++) f.speedKnots(k);
    for (let m = 0; m < 500; m++) f.distance(m * 50);
    expect(f.speedKnots(10)).toMatch(/^19\s?km\/h$/);
    // one for km/h, one each for metres, km with a decimal and whole km
    expect(made).toBeLessThanOrEqual(4);
  });
});

describe("formatters in the user's preferences", () => {
  const prefs = { speedUnit: 'kmh', distanceUnit: 'km', timezone: null, coordinateFormat: 'dd' } as const;

  it('rounds durations to whole minutes, never "60 min"', () => {
    const f = formatters('en');
    expect(f.duration(7_199)).toMatch(/^2\s?hr 0\s?min$/);
    expect(f.duration(3_570)).toMatch(/^1\s?hr 0\s?min$/);
    expect(f.duration(3_569)).toMatch(/^59\s?min$/);
    expect(f.duration(5_400)).toMatch(/^1\s?hr 30\s?min$/);
  });

  it('shows speeds and distances in the chosen units', () => {
    const mph = formatters('en', { ...prefs, speedUnit: 'mph', distanceUnit: 'mi' });
    expect(mph.speedKnots(10)).toMatch(/^12\s?mph$/);
    expect(mph.speedKmh(100)).toMatch(/^62\s?mph$/);
    expect(mph.distance(16_093.44)).toMatch(/^10\s?mi$/);
    expect(mph.units).toMatchObject({ speedSymbol: 'mph', distanceSymbol: 'mi' });
    const kn = formatters('en', { ...prefs, speedUnit: 'kn', distanceUnit: 'nmi' });
    expect(kn.speedKnots(10)).toBe('10 kn');
    expect(kn.distance(1852 * 3.25)).toBe('3.3 NM');
    expect(kn.speedValue(10)).toBe(10);
  });

  it('writes coordinates in the chosen format', () => {
    expect(formatters('en', { ...prefs, coordinateFormat: 'dd' }).coordinates(-1.2921, 36.8219)).toBe('-1.2921°, 36.8219°');
    expect(formatters('en', { ...prefs, coordinateFormat: 'ddm' }).coordinates(-1.2921, 36.8219)).toBe('1° 17.526′ S, 36° 49.314′ E');
    expect(formatters('en', { ...prefs, coordinateFormat: 'dms' }).coordinates(-1.2921, 36.8219)).toBe('1° 17′ 31.6″ S, 36° 49′ 18.8″ E');
    // a minute that rounds up to 60 carries into the degree
    expect(formatters('en', { ...prefs, coordinateFormat: 'ddm' }).coordinates(0.99999999, 0)).toBe('1° 0′ N, 0° 0′ E');
  });

  it('shows times in the chosen time zone', () => {
    const nairobi = formatters('en', { ...prefs, timezone: 'Africa/Nairobi' });
    const utc = formatters('en', { ...prefs, timezone: 'UTC' });
    expect(nairobi.dateTime('2026-11-28T21:30:00Z')).toMatch(/29.*2026.*(00:30|12:30\sAM)/);
    expect(utc.dateTime('2026-11-28T21:30:00Z')).toMatch(/28.*2026.*(21:30|9:30\sPM)/);
  });
});
