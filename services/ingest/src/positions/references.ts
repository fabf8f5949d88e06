import { isAdmin, setReferenceChecks, type App } from '@corridor/platform';
import type { DeviceRegistry } from '../devices/device-registry';

/**
 * The one reference ingest's API takes: the devices of a position batch, by unique id. A device's
 * positions come only from the device: an administrator may report for any registered device, a
 * `device` account for the devices linked to it (the gateway puts them in its identity), nobody
 * else for any. Every other unique id answers 404 like an unknown one; nothing of the batch is published.
 */
export function ingestReferenceChecks(app: App, registry: DeviceRegistry): void {
  setReferenceChecks(app, {
    device: async (ids, who) => {
      const out: (string | number)[] = [];
      for (const id of ids) {
        const d = typeof id === 'string' ? await registry.lookup(id) : undefined;
        if (d && (isAdmin(who) || (who.roles.includes('device') && who.deviceIds?.includes(d.id)))) out.push(id);
      }
      return out;
    },
  });
}
