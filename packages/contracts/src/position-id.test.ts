import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MAX_POSITION_DEVICE_ID, parsePositionId, positionId, positionTime } from './position-id';

describe('position ids', () => {
  it('reads back device, whole-second time and kind, and stays a safe integer at the bounds', () => {
    const last = Date.UTC(2136, 1, 7);
    for (const [device, t, kind] of [
      [1, Date.UTC(2000, 0, 1), 'fix'],
      [MAX_POSITION_DEVICE_ID, last, 'state'],
      [42, Date.parse('2026-03-01T10:00:07.999Z'), 'fix'],
    ] as const) {
      const id = positionId(device, t, kind);
      expect(Number.isSafeInteger(id)).toBe(true);
      expect(parsePositionId(id)).toEqual({ deviceId: device, fixTime: positionTime(t), kind });
    }
  });

  it('is the same for a resent fix (any sub-second part) and differs between a fix and a state record', () => {
    expect(positionId(7, '2026-03-01T10:00:07.001Z')).toBe(positionId(7, '2026-03-01T10:00:07.950Z'));
    expect(positionId(7, '2026-03-01T10:00:07Z', 'state')).not.toBe(positionId(7, '2026-03-01T10:00:07Z'));
  });

  it('is unique over devices, seconds and kinds, and sorts by time first', () => {
    const arb = fc.tuple(fc.integer({ min: 1, max: MAX_POSITION_DEVICE_ID }), fc.integer({ min: 0, max: 2 ** 32 - 1 }), fc.boolean());
    fc.assert(
      fc.property(arb, arb, ([d1, s1, k1], [d2, s2, k2]) => {
        const a = positionId(d1, Date.UTC(2000, 0, 1) + s1 * 1000, k1 ? 'state' : 'fix');
        const b = positionId(d2, Date.UTC(2000, 0, 1) + s2 * 1000, k2 ? 'state' : 'fix');
        if (d1 === d2 && s1 === s2 && k1 === k2) return a === b;
        return a !== b && (s1 === s2 || s1 < s2 === a < b);
      }),
    );
  });

  it('refuses what it cannot represent', () => {
    expect(() => positionId(MAX_POSITION_DEVICE_ID + 1, '2026-03-01T00:00:00Z')).toThrow(RangeError);
    expect(() => positionId(1, '1999-12-31T23:59:59Z')).toThrow(RangeError);
    expect(parsePositionId(2 ** 20)).toBeUndefined(); // device 0
    expect(parsePositionId(1.5)).toBeUndefined();
  });
});
