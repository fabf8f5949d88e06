import type { linkStore, Permission } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { opsApiCaller, type OpsApiOptions } from '../http/ops-api-caller';

/** Where a forwarded link is kept (contracts linkStore). */
export type LinkStore = NonNullable<ReturnType<typeof linkStore>>;

/**
 * Links the gateway does not keep: a notification rule's, a scheduled report's and the object links
 * (ops-api), a fence's links to devices and groups (the geofence service). /permissions forwards
 * them to their keeper with the caller's identity (signed as the proxy signs it), so the keeper
 * applies its own company checks and keeps the one copy. Its 4xx answers pass through as they
 * are; no answer is 503.
 */
export function forwardedLinksClient(opts: Record<LinkStore['service'], OpsApiOptions>) {
  const calls = {
    'ops-api': opsApiCaller({ ...opts['ops-api'], service: 'ops-api' }, 'links'),
    geofence: opsApiCaller({ ...opts.geofence, service: 'geofence' }, 'geofence links'),
  };
  return {
    list: async (q: Record<string, number | undefined>, who: Identity, store: LinkStore): Promise<Permission[]> => {
      const params = new URLSearchParams(
        Object.entries(q)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, String(v)] as [string, string]),
      );
      return (await calls[store.service]('GET', who, `${store.path}?${params}`)) as Permission[];
    },
    link: async (links: readonly Permission[], who: Identity, store: LinkStore): Promise<void> =>
      void (await calls[store.service]('POST', who, store.path, links)),
    unlink: async (links: readonly Permission[], who: Identity, store: LinkStore): Promise<void> =>
      void (await calls[store.service]('DELETE', who, store.path, links)),
  };
}
export type ForwardedLinksClient = ReturnType<typeof forwardedLinksClient>;
