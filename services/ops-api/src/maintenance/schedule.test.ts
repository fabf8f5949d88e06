import { describe, expect, it } from 'vitest';
import { PositionMessage, positionId } from '@corridor/contracts';
import { watchedValue } from '../devices/accumulators';
import { nextDue } from './schedule';

describe('next maintenance due', () => {
  it('is start until start is reached, then the next start + k·period above the current value', () => {
    expect(nextDue(10_000, 5_000, 0)).toBe(10_000);
    expect(nextDue(10_000, 5_000, 9_999)).toBe(10_000);
    expect(nextDue(10_000, 5_000, 10_000)).toBe(15_000);
    expect(nextDue(10_000, 5_000, 27_500)).toBe(30_000);
    expect(nextDue(0, 3_600_000, 7_200_001)).toBe(10_800_000);
  });

  it('is unknown (null), never Infinity or NaN, for a period stored before the contract bounded it', () => {
    // the sweep's maintenance: GET /maintenance-schedule answered 500 (Infinity failed the response schema)
    expect(nextDue(0, 5e-324, 48_000)).toBeNull();
    expect(nextDue(0, 0, 48_000)).toBeNull();
    expect(nextDue(1e308, 1e308, 1.7e308)).toBeNull();
    expect(nextDue(0, 5e-324, -1)).toBe(0);
  });
});

describe('watched values', () => {
  const p = PositionMessage.parse({
    id: positionId(1, '2026-01-01T00:00:00Z'),
    deviceId: 1,
    uniqueId: 'u',
    protocol: 'gt06',
    fixTime: '2026-01-01T00:00:00Z',
    serverTime: '2026-01-01T00:00:00Z',
    valid: true,
    latitude: 0,
    longitude: 0,
    speed: 0,
    course: 0,
    odometer: 52_000,
    attributes: { totalDistance: 48_000, hours: 7_200_000, fuel: '33.5' },
  });

  it("reads the server accumulators, the device's own odometer (else totalDistance) and numeric attributes", () => {
    expect(watchedValue('totalDistance', p, undefined)).toBe(48_000);
    expect(watchedValue('odometer', p, undefined)).toBe(52_000);
    expect(watchedValue('odometer', { ...p, odometer: null, attributes: { totalDistance: 48_000 } }, undefined)).toBe(48_000);
    expect(watchedValue('hours', p, undefined)).toBe(7_200_000);
    expect(watchedValue('fuel', p, undefined)).toBe(33.5);
    expect(watchedValue('speed', p, undefined)).toBe(0);
    expect(watchedValue('nothing', p, undefined)).toBeNull();
    expect(watchedValue('totalDistance', undefined, undefined)).toBeNull();
  });

  it('takes a value set by hand after the latest position, until a position made after it carries the new totals', () => {
    const setLater = { deviceId: 1, totalDistance: 1_000_000, hours: null, updatedAt: new Date('2026-01-01T00:10:00Z') };
    expect(watchedValue('totalDistance', p, setLater)).toBe(1_000_000);
    expect(watchedValue('totalDistance', undefined, setLater)).toBe(1_000_000);
    expect(watchedValue('hours', p, setLater)).toBe(7_200_000);
    const setBefore = { ...setLater, updatedAt: new Date('2025-12-31T23:00:00Z') };
    expect(watchedValue('totalDistance', p, setBefore)).toBe(48_000);
  });
});
