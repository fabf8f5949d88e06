import { describe, expect, it } from 'vitest';
import type { Device } from '@corridor/contracts/devices';
import type { Position } from '@corridor/contracts/positions';
import { fleetRows, truckState } from './truck-features';

const fix = (speed: number, attributes: Position['attributes'] = {}, fixTime = '2026-03-01T10:00:00Z') =>
  ({ deviceId: 1, speed, attributes, fixTime }) as Position;
const device = (status: Device['status']) => ({ id: 1, name: 'Truck 01', status }) as Device;

describe('a truck state that tells the truth', () => {
  it('is moving or stopped only while the server calls the device online', () => {
    expect(truckState(device('online'), fix(40))).toBe('moving');
    expect(truckState(device('online'), fix(0))).toBe('stopped');
    // the silent truck of issue 22: 73 km/h at its last fix, and the server no longer hears it
    expect(truckState(device('unknown'), fix(39.4))).toBe('unknown');
    expect(truckState(device('offline'), fix(39.4))).toBe('offline');
    expect(truckState(device('pending'), fix(10))).toBe('unknown');
    expect(truckState(device('online'), undefined)).toBe('unknown');
  });

  it('takes motion from the fix as the server decided it, else from the speed', () => {
    expect(truckState(device('online'), fix(0.5, { motion: true }))).toBe('moving');
    expect(truckState(device('online'), fix(30, { motion: false }))).toBe('stopped');
  });

  it('marks a fix older than two minutes as quiet (its speed is old news)', () => {
    const now = Date.parse('2026-03-01T10:03:00Z');
    const rows = fleetRows(
      [device('online'), { ...device('online'), id: 2, name: 'Truck 02' }],
      [fix(40), { ...fix(40, {}, '2026-03-01T10:02:30Z'), deviceId: 2 }],
      now,
    );
    expect(rows.map((r) => [r.device.name, r.state, r.quiet])).toEqual([
      ['Truck 01', 'moving', true],
      ['Truck 02', 'moving', false],
    ]);
  });
});
