import { describe, expect, it } from 'vitest';
import { mean, median, quantile } from './stats';

describe('bench statistics', () => {
  it('takes the median of odd and even counts, unmoved by one far-off round', () => {
    expect(median([52.7, 1558, 54.8])).toBe(54.8);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean([52.7, 1558, 54.8])).toBeCloseTo(555.17, 2);
    expect(median([])).toBeNaN();
  });

  it('takes a nearest-rank quantile of sorted values', () => {
    expect(quantile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 0.99)).toBe(10);
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(3);
  });
});
