import type { DeviceRegistryMessage } from '@corridor/contracts';
import { Topics } from '@corridor/contracts';
import { describe, expect, it } from 'vitest';
import { MemoryBus } from './adapters/bus-memory';
import { MemoryCache } from './adapters/cache-memory';
import { cacheKeys } from './cache-keys';
import { DeviceRegistryView } from './device-registry-view';
import { createLogger } from './logger';
import { eventually } from './testing/eventually';

const logger = createLogger('test', 'silent');
const entry = (id: number, uniqueId: string, more: Partial<DeviceRegistryMessage> = {}): DeviceRegistryMessage => ({
  id,
  uniqueId,
  name: `truck ${id}`,
  disabled: false,
  companyId: 7,
  groupId: null,
  status: 'online',
  deleted: false,
  ...more,
});

describe('DeviceRegistryView', () => {
  it('follows a device renamed to a new unique id and forgets a deleted one', () => {
    const view = new DeviceRegistryView({ bus: new MemoryBus(), logger, groupPrefix: 't' });
    view.apply(entry(1, 'A'));
    view.apply(entry(1, 'B'));
    expect(view.getByUniqueId('A')).toBeUndefined();
    expect(view.getByUniqueId('B')?.id).toBe(1);
    view.apply(entry(2, 'A'));
    view.apply(entry(1, 'B', { deleted: true }));
    expect(view.get(1)).toBeUndefined();
    expect(view.getByUniqueId('B')).toBeUndefined();
    expect(view.getByUniqueId('A')?.id).toBe(2);
    expect(view.ids()).toEqual([2]);
  });

  it('tells each listener the entry it replaced', () => {
    const view = new DeviceRegistryView({ bus: new MemoryBus(), logger, groupPrefix: 't' });
    const seen: [string | null | undefined, string | null | undefined][] = [];
    view.onApply((d, before) => seen.push([before?.protocol, d.protocol]));
    view.apply(entry(1, 'A', { protocol: 'gt06' }));
    view.apply(entry(1, 'A', { protocol: 'h02' }));
    expect(seen).toEqual([
      [undefined, 'gt06'],
      ['gt06', 'h02'],
    ]);
  });

  it('answers a device not read yet from the shared cache, checking both ids, and never a deleted one', async () => {
    const cache = new MemoryCache();
    const view = new DeviceRegistryView({ bus: new MemoryBus(), cache, logger, groupPrefix: 't' });
    await cache.set(cacheKeys.deviceByUniqueId('NEW'), JSON.stringify(entry(9, 'NEW')));
    await cache.set(cacheKeys.deviceByUniqueId('GONE'), JSON.stringify(entry(10, 'GONE', { deleted: true })));
    await cache.set(cacheKeys.deviceByUniqueId('BAD'), '{not json');
    expect((await view.findByUniqueId('NEW'))?.id).toBe(9);
    expect(view.get(9)?.uniqueId).toBe('NEW'); // applied: the next lookup needs no round trip
    expect(await view.findByUniqueId('GONE')).toBeUndefined();
    expect(await view.findByUniqueId('BAD')).toBeUndefined();
    const many = await view.findMany([
      { deviceId: 9, uniqueId: 'NEW' },
      { deviceId: 11, uniqueId: 'NEW' },
      { deviceId: 10, uniqueId: 'GONE' },
    ]);
    expect([...many.keys()]).toEqual([9]);
  });

  it('reads devices.v1 from the beginning and hears every batch', async () => {
    const bus = new MemoryBus();
    await bus.publish(Topics.devices, [
      { key: '1', value: entry(1, 'A') },
      { key: '2', value: entry(2, 'B') },
    ]);
    const view = new DeviceRegistryView({ bus, logger, groupPrefix: 't' });
    const batches: number[][] = [];
    view.onBatch((entries) => batches.push(entries.map((e) => e.id)));
    await view.start();
    await eventually('both devices read', () => view.size === 2);
    await bus.publish(Topics.devices, [{ key: '1', value: entry(1, 'A', { deleted: true }) }]);
    await eventually('the deletion read', () => view.size === 1);
    expect(batches.flat()).toEqual([1, 2, 1]);
    await view.stop();
  });
});
