import {
  Topics,
  type Geofence,
  type GeofenceInput,
  type GeofenceLink,
  type GeofenceLinkInput,
  type GeofencesQuery,
} from '@corridor/contracts';
import {
  AppError,
  assertWritable,
  companyScope,
  notFound,
  ownerCompany,
  type Bus,
  type Cache,
  type Identity,
  type Logger,
  type Orm,
} from '@corridor/platform';
import { audit } from '../audit/audit';
import type { GeofenceRow } from '../db/schema';
import { geofenceKeys } from '../inside/inside-sets';
import { resolveArea } from './area-input';
import { definitionMessage, toGeofence, toLink, tombstone } from './definition';
import type { GeofencesRepository } from './repository';

/** Who changes what: the verified identity and the request id, for the audit trail. */
export interface Actor {
  identity: Identity;
  requestId?: string;
}

export interface GeofencesServiceDeps {
  orm: Orm;
  repo: GeofencesRepository;
  bus: Bus;
  cache: Cache;
  logger: Logger;
  /** Called after a committed change with the fence ids (this instance's evaluator re-reads them at once). */
  onChange: (ids: number[]) => Promise<void>;
}

function rowValues(input: GeofenceInput, companyId: number | null) {
  const { area, attributes } = resolveArea(input);
  return {
    name: input.name,
    description: input.description,
    area,
    calendarId: input.calendarId,
    attributes,
    kind: input.kind,
    country: input.country,
    companyId,
  };
}

/**
 * Geofences: PostgreSQL is the source of truth. Each committed change (audited in the same
 * transaction) is published on the compacted geofences.v1 topic (key = fence id; a deletion is the
 * tombstone {id, deleted: true}) and handed to this instance's evaluator. A failed publish is
 * logged; every start republishes all definitions, so the topic heals.
 */
export function geofencesService(deps: GeofencesServiceDeps) {
  const { orm, repo, bus, logger } = deps;

  async function announce(ids: number[]): Promise<void> {
    try {
      const [rows, links] = await Promise.all([repo.byIds(ids), repo.links(ids)]);
      const present = new Set(rows.map((r) => r.id));
      await bus.publish(Topics.geofences, [
        ...rows.map((r) => ({ key: String(r.id), value: definitionMessage(r, links) })),
        ...ids.filter((id) => !present.has(id)).map((id) => ({ key: String(id), value: tombstone(id) })),
      ]);
    } catch (err) {
      logger.error({ err, geofenceIds: ids }, 'geofence change not published; the next start republishes every definition');
    }
    try {
      await deps.onChange(ids);
    } catch (err) {
      logger.error({ err, geofenceIds: ids }, 'local evaluator did not reload the fence; geofences.v1 will bring it');
    }
  }

  async function existing(id: number): Promise<GeofenceRow> {
    const row = await repo.get(id);
    if (!row) throw notFound('Geofence', id);
    return row;
  }

  /** The fence when the caller may change it: another company's answers 404, a shared one 403 unless staff. */
  async function writable(id: number, who: Identity, tx: Orm): Promise<GeofenceRow> {
    const row = await repo.get(id, tx);
    assertWritable(row, who, 'Geofence', id);
    return row;
  }

  return {
    async list(q: GeofencesQuery, who: Identity): Promise<Geofence[]> {
      const rows = await repo.list({
        company: companyScope(who),
        deviceId: q.deviceId,
        groupId: q.groupId,
        kinds: q.kind,
        country: q.country,
        keyword: q.keyword,
        limit: q.limit,
        offset: q.offset,
      });
      return rows.map(toGeofence);
    },

    async get(id: number): Promise<Geofence> {
      return toGeofence(await existing(id));
    },

    async create(input: GeofenceInput, actor: Actor): Promise<Geofence> {
      const values = rowValues(input, ownerCompany(actor.identity, input.companyId));
      const row = await orm.transaction(async (tx) => {
        const r = await repo.insert(values, tx);
        await audit.record(tx, actor.identity, {
          action: 'geofence.create',
          entityType: 'geofence',
          entityId: r.id,
          after: toGeofence(r),
          requestId: actor.requestId,
        });
        return r;
      });
      await announce([row.id]);
      return toGeofence(row);
    },

    async update(id: number, input: GeofenceInput, actor: Actor): Promise<Geofence> {
      const row = await orm.transaction(async (tx) => {
        const before = await writable(id, actor.identity, tx);
        // staff leaving companyId out keep the owner; a company caller's fence stays its own
        const values = rowValues(input, ownerCompany(actor.identity, input.companyId ?? before.companyId));
        const r = (await repo.update(id, values, tx))!;
        await audit.record(tx, actor.identity, {
          action: 'geofence.update',
          entityType: 'geofence',
          entityId: id,
          before: toGeofence(before),
          after: toGeofence(r),
          requestId: actor.requestId,
        });
        return r;
      });
      await announce([row.id]);
      return toGeofence(row);
    },

    async remove(id: number, actor: Actor): Promise<void> {
      await orm.transaction(async (tx) => {
        await writable(id, actor.identity, tx);
        const links = await repo.links([id], tx);
        const r = await repo.delete(id, tx);
        if (!r) throw notFound('Geofence', id);
        await audit.record(tx, actor.identity, {
          action: 'geofence.delete',
          entityType: 'geofence',
          entityId: id,
          before: { ...toGeofence(r), links: links.map(toLink) },
          requestId: actor.requestId,
        });
      });
      await deps.cache
        .del(geofenceKeys.inside(id))
        .catch((err: unknown) => logger.warn({ err, geofenceId: id }, 'inside-set of a deleted fence not cleared'));
      await announce([id]);
    },

    async links(id: number): Promise<GeofenceLink[]> {
      await existing(id);
      return (await repo.links([id])).map(toLink);
    },

    async link(id: number, target: GeofenceLinkInput, actor: Actor): Promise<GeofenceLink> {
      const link = await orm.transaction(async (tx) => {
        await writable(id, actor.identity, tx);
        const l = await repo.link(id, target, tx);
        if (!l)
          throw new AppError('CONFLICT', `Geofence ${id} is already linked to this ${target.deviceId !== undefined ? 'device' : 'group'}`, {
            ...target,
          });
        await audit.record(tx, actor.identity, {
          action: 'geofence.link',
          entityType: 'geofence_link',
          entityId: id,
          after: toLink(l),
          requestId: actor.requestId,
        });
        return l;
      });
      await announce([id]);
      return toLink(link);
    },

    async unlink(id: number, target: GeofenceLinkInput, actor: Actor): Promise<void> {
      await orm.transaction(async (tx) => {
        await writable(id, actor.identity, tx);
        const l = await repo.unlink(id, target, tx);
        if (!l) throw new AppError('NOT_FOUND', `Geofence ${id} has no such link`, { ...target });
        await audit.record(tx, actor.identity, {
          action: 'geofence.unlink',
          entityType: 'geofence_link',
          entityId: id,
          before: toLink(l),
          requestId: actor.requestId,
        });
      });
      await announce([id]);
    },

    /** Publishes every definition on geofences.v1 (at start), so the compacted topic matches the table. */
    async syncDefinitions(): Promise<number> {
      let n = 0;
      for await (const { rows, links } of repo.allWithLinks()) {
        await bus.publish(
          Topics.geofences,
          rows.map((r) => ({ key: String(r.id), value: definitionMessage(r, links) })),
        );
        n += rows.length;
      }
      return n;
    },

    announce,
  };
}
export type GeofencesService = ReturnType<typeof geofencesService>;
