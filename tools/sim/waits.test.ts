import { describe, expect, it } from 'vitest';
import { seededRandom } from './random';
import { busyFactor, typicalWait, waitSeconds } from './waits';

/** The simulator's waits: minutes at weighbridges, hours at border posts and ports, longer at the busy hours. */
const at = (eatHour: number) => new Date(Date.UTC(2026, 2, 2, (eatHour - 3 + 24) % 24, 0));
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

describe('simulated waits', () => {
  it('differ by place: Malaba hours, a weighbridge minutes, a place of a kind without its own figure its kind', () => {
    expect(typicalWait('ke-malaba')).toBe(3.5 * 3600);
    expect(typicalWait('ke-wb-gilgil')).toBe(12 * 60);
    expect(typicalWait('nowhere')).toBeUndefined();
  });

  it('peak early in the afternoon (East Africa Time) and are shortest before dawn', () => {
    expect(busyFactor(at(13))).toBeCloseTo(1.6, 5);
    expect(busyFactor(at(1))).toBeCloseTo(0.5, 5);
    expect(busyFactor(at(4))).toBeLessThan(busyFactor(at(9)));
  });

  it('spread around the typical wait of the hour, between 2 minutes and 14 hours', () => {
    const random = seededRandom(5);
    const malabaNoon = Array.from({ length: 2_000 }, () => waitSeconds('ke-malaba', at(13), random));
    const malabaNight = Array.from({ length: 2_000 }, () => waitSeconds('ke-malaba', at(1), random));
    const weighbridge = Array.from({ length: 2_000 }, () => waitSeconds('ke-wb-gilgil', at(13), random));
    // medians within 5 % of the typical wait times the hour's factor (lognormal: the median is the typical)
    expect(median(malabaNoon) / (3.5 * 3600 * 1.6)).toBeGreaterThan(0.95);
    expect(median(malabaNoon) / (3.5 * 3600 * 1.6)).toBeLessThan(1.05);
    expect(median(malabaNight) / (3.5 * 3600 * 0.5)).toBeGreaterThan(0.95);
    expect(median(malabaNight) / (3.5 * 3600 * 0.5)).toBeLessThan(1.05);
    expect(median(weighbridge)).toBeLessThan(30 * 60);
    for (const w of [...malabaNoon, ...malabaNight, ...weighbridge]) {
      expect(w).toBeGreaterThanOrEqual(120);
      expect(w).toBeLessThanOrEqual(14 * 3600);
    }
  });
});
