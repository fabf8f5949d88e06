import type { DeviceRegistryMessage } from '@corridor/contracts';
import type { Cache } from '../adapters/cache';
import { cacheKeys } from '../cache-keys';
import { publishUserDirectory } from '../user-directory';

/**
 * Writes device registry entries to the cache as ops-api does when it registers devices (the
 * entries services that do not own devices check device references with), for service tests that
 * run without ops-api.
 */
export async function registerDevices(
  cache: Cache,
  devices: { id: number; companyId?: number | null; groupId?: number | null; uniqueId?: string }[],
): Promise<void> {
  for (const d of devices) {
    const entry: DeviceRegistryMessage = {
      id: d.id,
      uniqueId: d.uniqueId ?? `imei-${d.id}`,
      name: `device ${d.id}`,
      disabled: false,
      companyId: d.companyId ?? null,
      groupId: d.groupId ?? null,
      status: 'unknown',
      deleted: false,
    };
    await cache.set(cacheKeys.deviceById(d.id), JSON.stringify(entry));
    await cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
  }
}

/** Publishes groups as ops-api does (cacheKeys.groups), for service tests that run without it. */
export async function publishGroups(cache: Cache, groups: { id: number; companyId: number | null }[]): Promise<void> {
  await cache.set(cacheKeys.groups(), JSON.stringify(groups));
}

/** Publishes the user directory as the gateway does, for service tests that run without it. */
export const publishUsers = publishUserDirectory;
