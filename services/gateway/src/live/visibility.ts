import type { DeviceRegistryMessage } from '@corridor/contracts';
import { companyScope, type Identity } from '@corridor/platform';
import type { PermissionsRepository } from '../permissions/repository';

/** What one live-feed client may see. */
export interface Viewer {
  userId: number;
  /** Staff (administrators, association): every device. */
  all: boolean;
  companyId?: number;
  /** Devices and groups linked to the user through /permissions. */
  deviceIds: ReadonlySet<number>;
  groupIds: ReadonlySet<number>;
}

export async function viewerFor(identity: Identity, permissions: PermissionsRepository): Promise<Viewer> {
  const scope = companyScope(identity);
  if (scope === undefined) return { userId: identity.userId, all: true, deviceIds: new Set(), groupIds: new Set() };
  const links = await permissions.propertiesOf('userId', identity.userId, ['deviceId', 'groupId']);
  return {
    userId: identity.userId,
    all: false,
    companyId: scope,
    deviceIds: new Set(links.filter((l) => l.propertyType === 'deviceId').map((l) => l.propertyId)),
    groupIds: new Set(links.filter((l) => l.propertyType === 'groupId').map((l) => l.propertyId)),
  };
}

/**
 * Company users see their company's devices and the ones linked to them; a device the directory
 * does not know (yet) is shown to staff only.
 */
export function canSee(v: Viewer, deviceId: number, device: DeviceRegistryMessage | undefined): boolean {
  if (v.all || v.deviceIds.has(deviceId)) return true;
  if (!device) return false;
  return device.companyId === v.companyId || (device.groupId !== null && v.groupIds.has(device.groupId));
}
