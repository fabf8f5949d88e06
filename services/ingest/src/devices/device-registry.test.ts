import { describe, expect, it } from 'vitest';
import { MemoryBus, MemoryCache, cacheKeys, createLogger } from '@corridor/platform';
import type { DeviceRegistryMessage } from '@corridor/contracts';
import { DeviceRegistry } from './device-registry';

const entry = (id: number, uniqueId: string, extra: Partial<DeviceRegistryMessage> = {}): DeviceRegistryMessage => ({
  id,
  uniqueId,
  name: `d${id}`,
  disabled: false,
  companyId: 101,
  groupId: null,
  status: 'unknown',
  deleted: false,
  ...extra,
});

describe('DeviceRegistry', () => {
  const make = () => {
    const cache = new MemoryCache();
    return { cache, registry: new DeviceRegistry(new MemoryBus(), cache, createLogger('test', 'silent')) };
  };

  it('finds registered devices and forgets a unique id that changed', async () => {
    const { registry } = make();
    registry.apply(entry(1, 'A'));
    expect(await registry.lookup('A')).toEqual({ id: 1, uniqueId: 'A' });
    registry.apply(entry(1, 'B'));
    expect(await registry.lookup('A')).toBeUndefined();
    expect(await registry.lookup('B')).toEqual({ id: 1, uniqueId: 'B' });
    expect(registry.size).toBe(1);
  });

  it('refuses deleted, disabled and pending devices', async () => {
    const { registry } = make();
    registry.apply(entry(1, 'A'));
    registry.apply(entry(1, 'A', { deleted: true }));
    registry.apply(entry(2, 'B', { disabled: true }));
    registry.apply(entry(3, 'C', { status: 'pending' }));
    for (const uid of ['A', 'B', 'C']) expect(await registry.lookup(uid)).toBeUndefined();
  });

  it('falls back to the cache entry ops-api wrote for a device it has not heard of yet', async () => {
    const { registry, cache } = make();
    expect(await registry.lookup('NEW')).toBeUndefined();
    await cache.set(cacheKeys.deviceByUniqueId('NEW'), JSON.stringify(entry(9, 'NEW')));
    expect(await registry.lookup('NEW')).toEqual({ id: 9, uniqueId: 'NEW' });
  });
});
