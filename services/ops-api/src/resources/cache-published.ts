import type { Cache, Logger } from '@corridor/platform';

/** The writes of a resource service (resourceService's create / update / remove). */
export interface ResourceWrites {
  create(...args: never[]): Promise<unknown>;
  update(...args: never[]): Promise<unknown>;
  remove(...args: never[]): Promise<void>;
}

/**
 * A resource whose whole list other services read from the cache (computed attributes for ingest,
 * calendars for the geofence evaluator): `publish` writes the list under `key` (at start), and every
 * create / update / remove publishes it again once committed. Publishes run one after another, so
 * the last one reads the latest committed state; a cache failure after a committed change is logged,
 * not reported to the caller whose write succeeded (the next change or start publishes again).
 */
export function publishedToCache<C extends ResourceWrites>(
  crud: C,
  opts: { cache: Cache; key: string; load: () => Promise<unknown[]>; logger: Logger; what: string },
): C & { publish(): Promise<number> } {
  let publishing: Promise<number> = Promise.resolve(0);
  async function write(): Promise<number> {
    const list = await opts.load();
    await opts.cache.set(opts.key, JSON.stringify(list));
    return list.length;
  }
  function publish(): Promise<number> {
    publishing = publishing.catch(() => 0).then(write);
    return publishing;
  }
  const after = <F extends (...args: never[]) => Promise<unknown>>(f: F): F =>
    (async (...args: Parameters<F>) => {
      const out = await f(...args);
      await publish().catch((err: unknown) =>
        opts.logger.warn({ err }, `${opts.what} not published to the cache; the next change or start publishes them`),
      );
      return out;
    }) as F;
  return { ...crud, publish, create: after(crud.create), update: after(crud.update), remove: after(crud.remove) };
}
