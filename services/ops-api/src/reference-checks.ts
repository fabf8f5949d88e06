import { eq, inArray } from 'drizzle-orm';
import { parsePositionId } from '@corridor/contracts';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  companyOwned,
  isAdmin,
  numericIds,
  remoteReferenceCheck,
  setReferenceChecks,
  userReferenceCheck,
  type Analytics,
  type App,
  type Cache,
  type Identity,
  type InternalKeys,
  type Orm,
  type ReferenceCheck,
  type RefId,
} from '@corridor/platform';
import {
  calendars,
  cargos,
  companies,
  complaints,
  computedAttributes,
  configurations,
  deviceModels,
  devices,
  documents,
  drafts,
  drivers,
  groups,
  inventories,
  maintenances,
  notificationRules,
  orders,
  savedCommands,
  scheduledReports,
  shipments,
  singleUseCertificates,
  trackingUnits,
  truckOwners,
  trucks,
} from './db/schema';
import { eventById } from './events/repository';

/** The owning company of each existing id of a table (ids it does not hold are absent). */
function owners(db: Orm, id: PgColumn, company: PgColumn | null, from: PgTable) {
  return async (ids: RefId[]): Promise<Map<RefId, number | null>> => {
    const wanted = id.dataType === 'string' ? ids.filter((i): i is string => typeof i === 'string') : numericIds(ids);
    if (!wanted.length) return new Map();
    const rows = (await db
      .select({ id, company: company ?? id })
      .from(from)
      .where(inArray(id, wanted as never[]))) as { id: RefId; company: unknown }[];
    return new Map(rows.map((r) => [r.id, company ? (r.company as number | null) : null]));
  };
}

/** A truck belongs to its owner's company. */
const truckOwnersCompany =
  (db: Orm) =>
  async (ids: RefId[]): Promise<Map<RefId, number | null>> => {
    const wanted = numericIds(ids);
    if (!wanted.length) return new Map();
    const rows = await db
      .select({ id: trucks.id, company: truckOwners.companyId })
      .from(trucks)
      .innerJoin(truckOwners, eq(trucks.ownerId, truckOwners.id))
      .where(inArray(trucks.id, wanted));
    return new Map(rows.map((r) => [r.id, r.company]));
  };

const ownedBy = (db: Orm, table: PgTable & { id: PgColumn; companyId: PgColumn }, shared: boolean): ReferenceCheck =>
  companyOwned(owners(db, table.id, table.companyId, table), { shared });

export interface OpsReferenceDeps {
  db: Orm;
  cache: Cache;
  analytics: Analytics;
  identitySecret: InternalKeys;
  /** The journey service's base URL: journeys and routes are checked by it, with the caller's identity. */
  journeyUrl?: () => string | undefined;
  /** The geofence service's base URL: geofence ids are checked by it, with the caller's identity. */
  geofenceUrl?: () => string | undefined;
  /** Inbox notifications the caller may see (addressed to them, their company or their role). */
  notificationVisible: (who: Identity, id: number) => Promise<boolean>;
}

/**
 * Every id an ops-api request carries is checked here, against the caller's company, before any
 * handler runs (404 like an unknown id): ops-api's own entries from its tables; users from the
 * directory the gateway publishes; journeys and routes by the journey service itself, geofences by the geofence service.
 */
export function opsReferenceChecks(app: App, deps: OpsReferenceDeps): void {
  const { db } = deps;
  const deviceCheck = ownedBy(db, devices, false);
  const devicePart = async (ids: RefId[], who: Identity, site: Parameters<ReferenceCheck>[2], parse: (id: RefId) => number | undefined) => {
    const byDevice = new Map<RefId, number>();
    for (const id of ids) {
      const d = parse(id);
      if (d !== undefined) byDevice.set(id, d);
    }
    const visible = new Set(await deviceCheck([...new Set(byDevice.values())], who, site));
    return [...byDevice].filter(([, d]) => visible.has(d)).map(([id]) => id);
  };
  const journeyChecks = (path: string): ReferenceCheck =>
    remoteReferenceCheck({
      baseUrl: deps.journeyUrl ?? (() => undefined),
      path: (id) => `${path}/${id}`,
      keys: deps.identitySecret,
      audience: 'journey',
      owner: 'The journey service',
    });
  const events = eventById(deps.analytics);

  setReferenceChecks(app, {
    device: deviceCheck,
    group: ownedBy(db, groups, false),
    calendar: ownedBy(db, calendars, true),
    driver: ownedBy(db, drivers, false),
    order: ownedBy(db, orders, false),
    report: ownedBy(db, scheduledReports, false),
    maintenance: ownedBy(db, maintenances, true),
    computedAttribute: ownedBy(db, computedAttributes, true),
    configuration: ownedBy(db, configurations, true),
    command: ownedBy(db, savedCommands, true),
    notificationRule: ownedBy(db, notificationRules, false),
    trackingUnit: ownedBy(db, trackingUnits, false),
    truckOwner: ownedBy(db, truckOwners, false),
    inventory: ownedBy(db, inventories, false),
    cargo: ownedBy(db, cargos, false),
    shipment: ownedBy(db, shipments, false),
    certificate: ownedBy(db, singleUseCertificates, false),
    complaint: ownedBy(db, complaints, false),
    document: ownedBy(db, documents, false),
    deviceModel: companyOwned(owners(db, deviceModels.id, null, deviceModels), { shared: true }),
    company: companyOwned(owners(db, companies.id, companies.id, companies), { shared: false }),
    truck: companyOwned(truckOwnersCompany(db), { shared: false }),
    draft: async (ids, who) => {
      const rows = await db
        .select({ id: drafts.id, userId: drafts.userId })
        .from(drafts)
        .where(inArray(drafts.id, numericIds(ids)));
      return rows.filter((r) => r.userId === who.userId || isAdmin(who)).map((r) => r.id);
    },
    notification: async (ids, who) => {
      const ok = await Promise.all(numericIds(ids).map(async (id) => ((await deps.notificationVisible(who, id)) ? id : undefined)));
      return ok.filter((id): id is number => id !== undefined);
    },
    // a position id holds its device's id: visible with its device
    position: (ids, who, site) => devicePart(ids, who, site, (id) => (typeof id === 'number' ? parsePositionId(id)?.deviceId : undefined)),
    event: async (ids, who, site) => {
      const found = await Promise.all(ids.map(async (id) => [id, typeof id === 'number' ? await events(id) : undefined] as const));
      const byDevice = new Map(found.filter(([, e]) => e).map(([id, e]) => [id, e!.deviceId]));
      const visible = new Set(await deviceCheck([...new Set(byDevice.values())], who, site));
      return [...byDevice].filter(([, d]) => visible.has(d)).map(([id]) => id);
    },
    user: userReferenceCheck(deps.cache),
    journey: journeyChecks('/journey'),
    route: journeyChecks('/routes'),
    geofence: remoteReferenceCheck({
      baseUrl: deps.geofenceUrl ?? (() => undefined),
      path: (id) => `/geofences/${id}`,
      keys: deps.identitySecret,
      audience: 'geofence',
      owner: 'The geofence service',
    }),
  });
}
