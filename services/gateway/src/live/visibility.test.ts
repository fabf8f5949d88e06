import { describe, expect, it } from 'vitest';
import type { DeviceRegistryMessage } from '@corridor/contracts';
import { canSee, type Viewer } from './visibility';

const device = (id: number, companyId: number | null, groupId: number | null = null): DeviceRegistryMessage => ({
  id,
  uniqueId: `u${id}`,
  name: `d${id}`,
  disabled: false,
  companyId,
  groupId,
  status: 'online',
  deleted: false,
});
const viewer = (v: Partial<Viewer>): Viewer => ({ userId: 1, all: false, deviceIds: new Set(), groupIds: new Set(), ...v });

describe('canSee', () => {
  it('lets staff see every device, even one the directory does not know', () => {
    expect(canSee(viewer({ all: true }), 9, undefined)).toBe(true);
  });

  it('limits a company user to their company', () => {
    const v = viewer({ companyId: 101 });
    expect(canSee(v, 1, device(1, 101))).toBe(true);
    expect(canSee(v, 2, device(2, 202))).toBe(false);
    expect(canSee(v, 3, device(3, null))).toBe(false);
    expect(canSee(v, 4, undefined)).toBe(false);
  });

  it('adds devices and groups linked through permissions', () => {
    const v = viewer({ companyId: 101, deviceIds: new Set([2]), groupIds: new Set([7]) });
    expect(canSee(v, 2, device(2, 202))).toBe(true);
    expect(canSee(v, 5, device(5, 202, 7))).toBe(true);
    expect(canSee(v, 6, device(6, 202, 8))).toBe(false);
  });

  it('shows nothing of other companies to a company role without a company', () => {
    expect(canSee(viewer({ companyId: -1 }), 1, device(1, 101))).toBe(false);
  });
});
