import { buildRouteIndex, type RouteIndex } from '../corridor/route-index';
import { resolveThresholds, type JourneyThresholds } from '../detectors/thresholds';
import { corridorRouteOf } from '../routes/corridor-route';
import type { RoutesRepository } from '../routes/repository';
import type { RuntimeJourney } from './runtime-journey';

export interface PreparedRoute {
  index: RouteIndex;
  thresholds: JourneyThresholds;
}

/**
 * Route indexes built once per route (per journey when the journey has its own origin or
 * destination), dropped when the routes version in the cache moves. At most `max` are kept.
 */
export class RouteIndexes {
  private readonly cache = new Map<string, Promise<PreparedRoute>>();
  private version: string | null | undefined;

  constructor(
    private readonly routes: RoutesRepository,
    private readonly max = 512,
  ) {}

  /** Call with the routes version read from the cache; a change drops every index. */
  observeVersion(version: string | null): void {
    if (this.version !== undefined && version !== this.version) this.cache.clear();
    this.version = version;
  }

  get(j: RuntimeJourney): Promise<PreparedRoute> {
    const key = j.origin || j.destination ? `${j.routeId}/${j.id}` : String(j.routeId);
    let p = this.cache.get(key);
    if (!p) {
      p = this.load(j);
      this.cache.set(key, p);
      p.catch(() => this.cache.delete(key));
      if (this.cache.size > this.max) this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }

  private async load(j: RuntimeJourney): Promise<PreparedRoute> {
    const row = await this.routes.get(j.routeId);
    if (!row) throw new Error(`journey ${j.id}: route ${j.routeId} not found`);
    return {
      index: buildRouteIndex(corridorRouteOf(row, { origin: j.origin, destination: j.destination })),
      thresholds: resolveThresholds(row.thresholds),
    };
  }
}
