import { z } from 'zod';
import type { Cache } from './adapters/cache';
import { cacheKeys } from './cache-keys';
import type { Logger } from './logger';
import { PublishedList } from './published-list';

type Attributes = Record<string, unknown>;
const Attrs = z.record(z.string(), z.unknown());

/** The groups ops-api publishes under cacheKeys.groups() (attributes and parent for setting lookups). */
export const PublishedGroups = z.array(
  z.object({
    id: z.number().int(),
    companyId: z.number().int().nullable().default(null),
    groupId: z.number().int().nullable().default(null),
    attributes: Attrs.default({}),
  }),
);
export type PublishedGroup = z.output<typeof PublishedGroups>[number];
const ServerAttributes = z.array(Attrs).max(1);

/** A boolean setting as Traccar stores them in attributes (true/false or the strings). */
export const flagOf = (v: unknown): boolean | undefined =>
  typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined;

/** The first usable value of `key` in the layers, most specific first (Traccar's AttributeUtil.lookup). */
export function lookupSetting<T>(layers: readonly Attributes[], key: string, read: (v: unknown) => T | undefined): T | undefined {
  for (const l of layers) {
    const v = read(l[key]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * Where a device's settings come from besides its own attributes, without a PostgreSQL query: the
 * groups ops-api publishes (groups:v1, with attributes and parents) and the server's attributes the
 * gateway publishes on PUT /server (server-attributes:v1), both re-read at most every reloadMs and
 * applied only when their text changed. A lost groups key keeps the groups last read; no server
 * attributes published means none set.
 */
export class SettingLayers {
  private groups = new Map<number, PublishedGroup>();
  private serverAttrs: Attributes = {};
  private readonly lists: PublishedList<unknown>[];

  constructor(opts: { cache: Cache; logger: Logger; reloadMs?: number; now?: () => number }) {
    const common = { cache: opts.cache, logger: opts.logger, reloadMs: opts.reloadMs ?? 2000, ...(opts.now ? { now: opts.now } : {}) };
    this.lists = [
      new PublishedList({
        ...common,
        key: cacheKeys.groups(),
        what: 'groups',
        schema: PublishedGroups,
        whenMissing: 'keep',
        apply: (l) => void (this.groups = new Map(l.map((g) => [g.id, g]))),
      }),
      new PublishedList({
        ...common,
        key: cacheKeys.serverAttributes(),
        what: 'server attributes',
        schema: ServerAttributes,
        whenMissing: 'empty',
        apply: (l) => void (this.serverAttrs = l[0] ?? {}),
      }),
    ] as PublishedList<unknown>[];
  }

  /** Re-reads the lists whose last read is older than reloadMs (a cache failure keeps them). */
  async refresh(): Promise<void> {
    await Promise.all(this.lists.map((l) => l.refresh()));
  }

  /** The group and its parents, nearest first (a cycle stops the walk; an unknown group ends it). */
  groupLine(id: number | null): PublishedGroup[] {
    const out: PublishedGroup[] = [];
    const seen = new Set<number>();
    for (let cur = id; cur !== null && !seen.has(cur);) {
      seen.add(cur);
      const g = this.groups.get(cur);
      if (!g) break;
      out.push(g);
      cur = g.groupId;
    }
    return out;
  }

  /** The group's attributes and its parents', nearest first. */
  groupChain(id: number | null): Attributes[] {
    return this.groupLine(id).map((g) => g.attributes);
  }

  get server(): Attributes {
    return this.serverAttrs;
  }

  /** A device's layers in lookup order: its attributes, its group chain, the server's. */
  of(device: { attributes?: Attributes | undefined; groupId: number | null }): Attributes[] {
    return [device.attributes ?? {}, ...this.groupChain(device.groupId), this.serverAttrs];
  }
}
