import { MemoryBus } from '@corridor/platform';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll } from 'vitest';
import { build, type IngestService } from '../src/app';
import { registryEntry } from './test-device';

/** The intake gate's size in the gated ingest: fixes read and not yet published. */
export const MAX_PENDING = 4;

export interface GatedIngest {
  adapters: TestAdapters;
  /** The embedded bus: `bus.available = false` makes every publish fail. */
  bus: MemoryBus;
  svc: IngestService;
  /** The GT06 port. */
  port: number;
}

/**
 * An ingest on the embedded bus whose publishes a test can refuse, with an intake gate of
 * MAX_PENDING fixes and quick publish retries, these devices registered and its GT06 port open:
 * built before the file's tests and closed after them (the bus made available again first).
 */
export function gatedIngest(devices: { id: number; uniqueId: string }[]): GatedIngest {
  const h = {} as GatedIngest;
  beforeAll(async () => {
    h.adapters = await createTestAdapters('embedded');
    h.bus = h.adapters.bus as MemoryBus;
    h.svc = await build({
      ...h.adapters,
      identitySecret: TEST_IDENTITY_SECRET,
      settings: { MAX_PENDING_FIXES: MAX_PENDING },
      tuning: { retry: { initialMs: 20, maxMs: 80 } },
    });
    await h.svc.start();
    for (const d of devices) h.svc.registry.apply(registryEntry(d.id, d.uniqueId));
    h.port = await h.svc.ports.tcp.gt06.listen(0, '127.0.0.1');
  });
  afterAll(async () => {
    if (h.bus) h.bus.available = true;
    await h.svc?.close();
    await h.adapters?.close();
  });
  return h;
}
