import type { EventMessage } from '@corridor/contracts';
import { createLogger, MemoryCache, type Clock } from '@corridor/platform';
import { beforeEach, describe, expect, it } from 'vitest';
import { DuplicateConnections } from './duplicate-connections';
import { IdentityEvents } from './identity-events';

const logger = createLogger('test', 'silent');
const DEVICE = { id: 5, uniqueId: '861230043000005' };
const T0 = Date.UTC(2026, 0, 6, 9, 0, 0);

let events: EventMessage[];
let now: number;
let duplicates: DuplicateConnections;

beforeEach(() => {
  events = [];
  now = T0;
  const clock: Clock = { now: () => new Date(now) };
  const cache = new MemoryCache();
  duplicates = new DuplicateConnections({
    cache,
    clock,
    logger,
    events: new IdentityEvents({ record: async (es) => void events.push(...es), cache, clock, logger }),
  });
});

/** Connection `id` opened at `opened` s and heard at `at` s after T0. */
const heard = (id: string, opened: number, at: number, remote = `10.0.0.${id}:4000`) => {
  now = T0 + at * 1000;
  return duplicates.heard(DEVICE, id, T0 + opened * 1000, T0 + at * 1000, remote, 'gt06');
};

describe('DuplicateConnections', () => {
  it('a reconnect is not a duplicate: the old connection, half-open, never sends again', async () => {
    await heard('1', 0, 0);
    await heard('1', 0, 30);
    await heard('2', 40, 40); // the device reconnected; connection 1 is still open on the server
    await heard('2', 40, 70);
    await heard('2', 40, 100);
    expect(events).toEqual([]);
  });

  it('is one when both connections send after the later one opened, from either side, once per 10 minutes', async () => {
    await heard('1', 0, 0);
    await heard('2', 40, 40);
    await heard('1', 0, 45); // the older one speaks after the newer opened
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'deviceIdentityConflict',
      deviceId: DEVICE.id,
      attributes: { reason: 'duplicate_connection', remote: '10.0.0.1:4000', otherRemote: '10.0.0.2:4000' },
    });
    await heard('2', 40, 50);
    expect(events).toHaveLength(1);
  });

  it('counts the arrival of a frame, not when it was handled: a frame read before the reconnect is no duplicate', async () => {
    await heard('1', 0, 0);
    await heard('2', 40, 40);
    now = T0 + 45_000; // connection 1's last frame arrived at 35 s and waited for the bus until 45 s
    await duplicates.heard(DEVICE, '1', T0, T0 + 35_000, '10.0.0.1:4000', 'gt06');
    expect(events).toEqual([]);
  });

  it('forgets a closed connection', async () => {
    await heard('1', 0, 0);
    await duplicates.gone(DEVICE.id, '1');
    await heard('2', 40, 40);
    await heard('2', 40, 50);
    expect(events).toEqual([]);
  });
});
