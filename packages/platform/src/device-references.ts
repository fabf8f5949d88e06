import { DeviceRegistryMessage } from '@corridor/contracts';
import type { Cache } from './adapters/cache';
import { cacheKeys } from './cache-keys';
import { AppError } from './errors';
import { companyOwned, numericIds, type ReferenceCheck, type RefId } from './references';

/**
 * A device id a request names, for services that do not own devices (journey, geofence): its
 * company from the device registry ops-api keeps in the shared cache (written before ops-api
 * answers a change, rewritten at its start), else from the devices.v1 copy the service holds.
 */
export function deviceReferenceCheck(
  cache: Cache,
  known: (id: number) => { companyId: number | null } | undefined = () => undefined,
): ReferenceCheck {
  return companyOwned(
    async (ids: RefId[]) => {
      const wanted = numericIds(ids);
      let cached: (string | null)[];
      try {
        cached = wanted.length ? await cache.mget(wanted.map((id) => cacheKeys.deviceById(id))) : [];
      } catch (err) {
        throw new AppError('UNAVAILABLE', 'The device registry is unavailable', { cause: (err as Error).message }, true);
      }
      const out = new Map<RefId, number | null>();
      wanted.forEach((id, i) => {
        const raw = cached[i];
        const entry = raw ? DeviceRegistryMessage.safeParse(JSON.parse(raw)) : undefined;
        if (entry?.success && !entry.data.deleted) out.set(id, entry.data.companyId);
        else if (!raw) {
          const k = known(id);
          if (k) out.set(id, k.companyId);
        }
      });
      return out;
    },
    { shared: false },
  );
}
