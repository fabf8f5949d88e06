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
