import type { Cache } from '@corridor/platform';
import type { JourneysRepository } from '../journeys/repository';
import { journeyKeys } from './journey-keys';
import { runtimeJourney, type RuntimeJourney } from './runtime-journey';

interface Entry {
  version: string | null;
  /** when the version was read (the `now` clock), for the age limit */
  readAt: number;
  journeys: RuntimeJourney[];
}

export interface DeviceJourneysOptions {
  /**
   * Reload a device's journeys at least this often even when its version did not move (default
   * 60 s): bounds how long a lost announcement (the cache down between a journey's commit and its
   * version bump, or a cache restart that brings a counter back to a value already seen) can hide
   * a change.
   */
  maxAgeMs?: number;
  /** monotonic milliseconds (default performance.now) */
  now?: () => number;
}

/**
 * The planned and active journeys of each device, kept in process. Each lookup reads the devices'
 * version counters from the cache in one round trip (together with the routes version) and reloads
 * from PostgreSQL only the devices whose counter moved (or whose copy is older than `maxAgeMs`),
 * so a journey declared or cancelled on any instance reaches every evaluator by the next batch.
 * The version is read before the rows, so the rows kept under a version are at least as new as the
 * change that set it; a change committed meanwhile moves the version again and the next batch reloads.
 */
export class DeviceJourneys {
  private readonly byDevice = new Map<number, Entry>();
  private readonly maxAgeMs: number;
  private readonly now: () => number;

  constructor(
    private readonly repo: JourneysRepository,
    private readonly cache: Cache,
    options: DeviceJourneysOptions = {},
  ) {
    this.maxAgeMs = options.maxAgeMs ?? 60_000;
    this.now = options.now ?? (() => performance.now());
  }

  /** Journeys per device, and the routes version read in the same round trip. */
  async forDevices(deviceIds: number[]): Promise<{ journeys: Map<number, RuntimeJourney[]>; routesVersion: string | null }> {
    const readAt = this.now();
    const versions = await this.cache.mget([journeyKeys.routesVersion, ...deviceIds.map(journeyKeys.deviceVersion)]);
    const versionOf = new Map(deviceIds.map((d, i) => [d, versions[i + 1] ?? null]));
    const stale = deviceIds.filter((d) => {
      const e = this.byDevice.get(d);
      return !e || e.version !== versionOf.get(d) || readAt - e.readAt >= this.maxAgeMs;
    });
    if (stale.length) {
      const fresh = new Map<number, RuntimeJourney[]>(stale.map((d) => [d, []]));
      for (const row of await this.repo.openOfDevices(stale)) {
        const j = runtimeJourney(row);
        if (j) fresh.get(j.deviceId)?.push(j);
      }
      for (const [d, journeys] of fresh) this.byDevice.set(d, { version: versionOf.get(d) ?? null, readAt, journeys });
    }
    return {
      journeys: new Map(deviceIds.map((d) => [d, this.byDevice.get(d)?.journeys ?? []])),
      routesVersion: versions[0] ?? null,
    };
  }

  /** Drops devices' entries (after a local change or a failure) so the next lookup reloads them. */
  forget(deviceIds: Iterable<number>): void {
    for (const d of deviceIds) this.byDevice.delete(d);
  }

  /** Tells every instance a device's journeys changed. */
  async bump(deviceIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(deviceIds)];
    this.forget(ids);
    await Promise.all(ids.map((d) => this.cache.incr(journeyKeys.deviceVersion(d))));
  }
}
