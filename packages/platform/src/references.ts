import { z } from 'zod';
import type { Cache } from './adapters/cache';
import { endpointReferences, valuesAt, type EndpointDef, type ReferenceKind, type ReferenceSite } from '@corridor/contracts';
import type { App } from './app';
import { AppError, notFound } from './errors';
import { IDENTITY_HEADER, companyScope, signIdentity, type Identity, type InternalKeys } from './identity';
import { counter } from './metrics';

export type RefId = number | string;

/**
 * Which of the ids (all of one kind, from one request) the caller may name: the ones it may read,
 * existing ones only. Every other id answers 404, exactly as an unknown one.
 */
export type ReferenceCheck = (ids: RefId[], who: Identity, site: ReferenceSite) => Promise<Iterable<RefId>>;
export type ReferenceChecks = Partial<Record<ReferenceKind, ReferenceCheck>>;

const refused = counter('references_refused_total', 'Requests refused because an id they carry names nothing the caller may see', ['kind']);

const names: Record<ReferenceKind, string> = {
  device: 'Device',
  group: 'Group',
  calendar: 'Calendar',
  geofence: 'Geofence',
  route: 'Route',
  journey: 'Journey',
  journeyFlag: 'Flag',
  user: 'User',
  driver: 'Driver',
  order: 'Order',
  maintenance: 'Maintenance',
  computedAttribute: 'Computed attribute',
  deviceModel: 'Device model',
  configuration: 'Configuration',
  draft: 'Draft',
  truckOwner: 'Truck owner',
  truck: 'Truck',
  trackingUnit: 'Tracking unit',
  inventory: 'Inventory item',
  event: 'Event',
  notification: 'Notification',
  notificationRule: 'Notification rule',
  command: 'Saved command',
  company: 'Company',
  cargo: 'Cargo',
  shipment: 'Shipment',
  document: 'Document',
  certificate: 'Certificate',
  complaint: 'Complaint',
  position: 'Position',
  report: 'Scheduled report',
};

interface AppReferences {
  checks: ReferenceChecks;
  endpoints: EndpointDef[];
}

declare module 'fastify' {
  interface FastifyInstance {
    references: AppReferences;
  }
}

/** Sets up an app's reference checking: createApp calls it; ready fails if an endpoint names a kind nobody checks. */
export function installReferences(app: App, service: string): void {
  const state: AppReferences = { checks: {}, endpoints: [] };
  app.decorate('references', state);
  app.addHook('onReady', async () => {
    const missing = new Set<string>();
    for (const def of state.endpoints) {
      const r = endpointReferences(def);
      for (const site of [...r.params, ...r.query, ...r.body])
        if (!state.checks[site.references]) missing.add(`${site.references} (${def.id})`);
    }
    if (missing.size)
      throw new Error(`${service}: no reference check for ${[...missing].join(', ')}: every id a request carries must be checked`);
  });
}

/** The checks of this service, one per kind its endpoints take (see references.ts in contracts). */
export function setReferenceChecks(app: App, checks: ReferenceChecks): void {
  Object.assign(app.references.checks, checks);
}

/** Remembers an endpoint whose references the app must check (registerEndpoint calls it). */
export function trackReferences(app: App, def: EndpointDef): boolean {
  const r = endpointReferences(def);
  if (!r.params.length && !r.query.length && !r.body.length) return false;
  app.references.endpoints.push(def);
  return true;
}

/**
 * Checks every id a request carries (path, query, body; nested and in arrays) against what the
 * caller may see: 404 for any it may not, the same answer as for an unknown id. Public endpoints
 * authorise otherwise (signed links), whether or not the caller is signed in.
 */
export async function checkReferences(
  app: App,
  def: EndpointDef,
  req: { identity?: Identity; params?: unknown; query?: unknown; body?: unknown },
): Promise<void> {
  const who = req.identity;
  // a public endpoint authorises by what it carries (a signed link), whoever calls it
  if (!who || def.access === 'public') return;
  const r = endpointReferences(def);
  const parts = [
    { sites: r.params, value: req.params },
    { sites: r.query, value: req.query },
    { sites: r.body, value: req.body },
  ];
  for (const { sites, value } of parts) {
    for (const site of sites) {
      const ids = [
        ...new Set(
          valuesAt(value, site.path).filter((v): v is RefId => (typeof v === 'number' && v !== 0) || (typeof v === 'string' && v !== '')),
        ),
      ];
      if (!ids.length) continue;
      const check = app.references.checks[site.references];
      if (!check) throw new AppError('INTERNAL', `No reference check for ${site.references}`);
      const visible = new Set(await check(ids, who, site));
      const hidden = ids.find((id) => !visible.has(id));
      if (hidden !== undefined) {
        refused.inc({ kind: site.references });
        throw notFound(names[site.references], hidden);
      }
    }
  }
}

/**
 * The usual check: an entry is visible when the caller sees every company, when it is the
 * caller's company's, or when it is shared (company null) and the kind has shared entries.
 * `owners` gives the owning company of each existing id (absent ids do not exist).
 */
export function companyOwned(owners: (ids: RefId[]) => Promise<Map<RefId, number | null>>, opts: { shared: boolean }): ReferenceCheck {
  return async (ids, who, site) => {
    const found = await owners(ids);
    const scope = site.scope === 'any' ? undefined : companyScope(who);
    return [...found]
      .filter(([, company]) => scope === undefined || company === scope || (opts.shared && company === null))
      .map(([id]) => id);
  };
}

/** Numeric ids only (a string where a number is expected never names an entry). */
export const numericIds = (ids: RefId[]): number[] => ids.filter((i): i is number => typeof i === 'number');

/**
 * A reference to another service's entry, checked by that service: GET its API path for the id
 * with the caller's identity (signed as the gateway would), so the owner applies its own rules.
 * 2xx: visible; 401, 403, 404: not (answered as unknown); anything else: 503, never a silent pass.
 */
export function remoteReferenceCheck(opts: {
  baseUrl: () => string | undefined;
  path: (id: RefId) => string;
  keys: InternalKeys;
  audience: string;
  owner: string;
}): ReferenceCheck {
  return async (ids, who) => {
    const base = opts.baseUrl();
    if (!base) throw new AppError('UNAVAILABLE', `${opts.owner} references cannot be checked: its URL is not configured`, undefined, true);
    const token = await signIdentity(who, opts.keys, opts.audience);
    const out: RefId[] = [];
    for (const id of ids) {
      let status: number;
      try {
        const res = await fetch(new URL('/api' + opts.path(id), base), {
          headers: { [IDENTITY_HEADER]: token },
          signal: AbortSignal.timeout(5000),
        });
        status = res.status;
        await res.body?.cancel();
      } catch (err) {
        throw new AppError('UNAVAILABLE', `${opts.owner} is unavailable to check a reference`, { cause: (err as Error).message }, true);
      }
      if (status >= 200 && status < 300) out.push(id);
      else if (![401, 403, 404].includes(status))
        throw new AppError('UNAVAILABLE', `${opts.owner} answered ${status} to a reference check`, undefined, true);
    }
    return out;
  };
}

/**
 * A company id, for services that do not own companies: a company caller may name its own only,
 * staff any (their existence is ops-api's to know).
 */
export const callerCompanyCheck: ReferenceCheck = async (ids, who) => {
  const scope = companyScope(who);
  return numericIds(ids).filter((id) => scope === undefined || id === scope);
};

const OwnerList = z.array(z.object({ id: z.number().int(), companyId: z.number().int().nullable().default(null) }).loose());

/**
 * Ids of a kind whose owner publishes the whole list, with each entry's company, under one cache
 * key (ops-api's groups and calendars): read fresh for each check. A missing or unreadable list
 * answers 503: a reference is never let through unchecked.
 */
export function publishedOwnersCheck(cache: Cache, key: string, opts: { shared: boolean; what: string }): ReferenceCheck {
  return companyOwned(async (ids) => {
    let raw: string | null;
    try {
      raw = await cache.get(key);
    } catch (err) {
      throw new AppError('UNAVAILABLE', `The published ${opts.what} are unavailable`, { cause: (err as Error).message }, true);
    }
    const parsed = raw === null ? undefined : OwnerList.safeParse(JSON.parse(raw));
    if (!parsed?.success)
      throw new AppError('UNAVAILABLE', `The ${opts.what} are not published (their owner publishes them at start)`, undefined, true);
    const wanted = new Set(ids);
    return new Map(parsed.data.filter((e) => wanted.has(e.id)).map((e) => [e.id, e.companyId]));
  }, opts);
}
