import type { Permission } from '@corridor/contracts';
import type { Identity } from '@corridor/platform';
import { opsApiCaller, type OpsApiOptions } from '../http/ops-api-caller';

/**
 * Links to a notification rule (Traccar permissions with notificationId) are the rule's own fields,
 * kept by ops-api: /permissions forwards them to ops-api's /notifications/links with the caller's
 * identity (signed as the proxy signs it), so ops-api applies its own company checks and keeps the
 * one copy. ops-api's 4xx answers pass through as they are; no answer is 503.
 */
export function notificationLinksClient(opts: OpsApiOptions) {
  const call = opsApiCaller(opts, 'notification links');
  // `path`: where ops-api keeps these links (contracts opsLinkPath: a notification rule's, a scheduled report's)
  return {
    list: async (q: Record<string, number | undefined>, who: Identity, path = '/notifications/links'): Promise<Permission[]> => {
      const params = new URLSearchParams(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)] as [string, string]));
      return (await call('GET', who, `${path}?${params}`)) as Permission[];
    },
    link: async (links: readonly Permission[], who: Identity, path = '/notifications/links'): Promise<void> => void (await call('POST', who, path, links)),
    unlink: async (links: readonly Permission[], who: Identity, path = '/notifications/links'): Promise<void> => void (await call('DELETE', who, path, links)),
  };
}
export type NotificationLinksClient = ReturnType<typeof notificationLinksClient>;
