import { describe, expect, it } from 'vitest';
import { distanceMetres } from '@corridor/geodata';
import { dwellRadius, lineBetween, NO_SPEED_COLOUR, SPEED_CLASSES, speedColour } from './observatory';

/** The observatory map's drawing rules: a segment's colour by its speed, its line along the corridor, a place's size by its wait. */
describe('observatory map', () => {
  it('colours a segment by its transit speed class, grey without trips', () => {
    expect(speedColour(null)).toBe(NO_SPEED_COLOUR);
    expect(speedColour(10)).toBe(SPEED_CLASSES[0].colour);
    expect(speedColour(20)).toBe(SPEED_CLASSES[1].colour);
    expect(speedColour(49.9)).toBe(SPEED_CLASSES[2].colour);
    expect(speedColour(80)).toBe(SPEED_CLASSES[3].colour);
  });

  it('draws a segment along the corridor between its two places, in either order', () => {
    const line = lineBetween('northern', 100_000, 30_000)!;
    expect(line.length).toBeGreaterThan(2);
    let metres = 0;
    for (let i = 1; i < line.length; i++) metres += distanceMetres(line[i - 1]!, line[i]!);
    // the corridor's own line between the two distances along it
    expect(metres).toBeCloseTo(70_000, -1);
    expect(lineBetween('nowhere', 0, 1)).toBeNull();
  });

  it('sizes a place by the square root of its median wait, from 5 to 28 px', () => {
    expect(dwellRadius(null)).toBe(5);
    expect(dwellRadius(0)).toBe(5);
    expect(dwellRadius(3600)).toBeCloseTo(5 + Math.sqrt(60) * 1.6, 5);
    expect(dwellRadius(4 * 3600)).toBeGreaterThan(dwellRadius(3600));
    expect(dwellRadius(1_000_000)).toBe(28);
  });
});
