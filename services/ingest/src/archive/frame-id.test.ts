import { describe, expect, it } from 'vitest';
import { rawFrameId } from './frame-id';

describe('rawFrameId', () => {
  it('is a version 7 UUID carrying the millisecond time', () => {
    const id = rawFrameId(Date.UTC(2030, 0, 1));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2030, 0, 1));
  });

  it('sorts in creation order within one millisecond and across the counter overflow', () => {
    const ms = Date.UTC(2031, 5, 1);
    const ids = Array.from({ length: 5000 }, () => rawFrameId(ms));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
    expect(rawFrameId(ms - 10) > ids[ids.length - 1]!).toBe(true); // a clock step back never goes backwards
  });
});
