import { build, type IngestDeps, type IngestService } from '../app';

/** A registry entry of an enabled device without a company (what the device-registry topic carries). */
export function registryEntry(id: number, uniqueId: string) {
  return { id, uniqueId, name: `truck ${id}`, disabled: false, companyId: null, groupId: null, status: 'online' as const, deleted: false };
}

/**
 * Ingest built from `deps` and started, `devices` registered, its GT06 port listening on an
 * ephemeral port of 127.0.0.1: how the broker-restart test (test/kafka-broker-restart.test.ts) and
 * the ingest-capacity bench (tools/bench/suites/ingest-capacity.ts) run ingest under GT06 trackers.
 */
export async function startGt06Ingest(
  deps: IngestDeps,
  devices: { id: number; uniqueId: string }[],
): Promise<{ svc: IngestService; port: number }> {
  const svc = await build(deps);
  try {
    await svc.start();
    for (const d of devices) svc.registry.apply(registryEntry(d.id, d.uniqueId));
    return { svc, port: await svc.ports.tcp.gt06.listen(0, '127.0.0.1') };
  } catch (err) {
    await svc.close().catch(() => undefined);
    throw err;
  }
}
