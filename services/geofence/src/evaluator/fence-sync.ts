import { randomUUID } from 'node:crypto';
import { GeofenceDefinitionMessage, Topics } from '@corridor/contracts';
import { consumeValidated, unavailable, type Bus, type Logger, type Subscription } from '@corridor/platform';
import type { GeofencesRepository } from '../geofences/repository';
import type { FenceCatalog } from './fence-catalog';

/**
 * Keeps a FenceCatalog equal to the geofence table. At start it loads every fence; afterwards every
 * geofences.v1 message (from any instance's API) names a fence to re-read. Re-reading rather than
 * trusting the message body makes replays of the compacted topic harmless: an old definition read
 * back from the topic can never resurrect a fence or an old shape, because PostgreSQL answers.
 */
export class FenceSync {
  private sub: Subscription | undefined;
  /** the refresh in progress; the next one starts after it */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    private readonly repo: GeofencesRepository,
    private readonly catalog: FenceCatalog,
    private readonly bus: Bus,
    private readonly logger: Logger,
  ) {}

  async loadAll(): Promise<number> {
    this.catalog.clear();
    for await (const { rows, links } of this.repo.allWithLinks()) this.catalog.upsert(rows, links);
    return this.catalog.size;
  }

  /**
   * Re-reads the given fences (deleted ones leave the catalog). Refreshes run one at a time, in the
   * order they were asked for, so an earlier (older) read never overwrites a later one.
   */
  refresh(ids: readonly number[]): Promise<void> {
    const run = this.queue.then(() => this.reload(ids));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async reload(ids: readonly number[]): Promise<void> {
    const unique = [...new Set(ids)];
    if (!unique.length) return;
    let rows;
    let links;
    try {
      [rows, links] = await Promise.all([this.repo.byIds(unique), this.repo.links(unique)]);
    } catch (err) {
      throw unavailable('PostgreSQL', err);
    }
    const present = new Set(rows.map((r) => r.id));
    this.catalog.remove(unique.filter((id) => !present.has(id)).map(String));
    this.catalog.upsert(rows, links);
  }

  /** Follows geofences.v1 (read from the beginning by every instance, in its own group). */
  async start(): Promise<void> {
    this.sub = await consumeValidated({
      bus: this.bus,
      logger: this.logger,
      groupId: `geofence-definitions-${randomUUID()}`,
      topic: Topics.geofences,
      schema: GeofenceDefinitionMessage,
      fromBeginning: true,
      handle: async (msgs) => this.refresh(msgs.map((m) => m.id)),
    });
  }

  async stop(): Promise<void> {
    await this.sub?.stop();
  }
}
