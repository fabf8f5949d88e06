import { Topics, type CommandMessage, type EventMessage } from '@corridor/contracts';
import { createLogger, MemoryBus, MemoryCache, systemClock } from '@corridor/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { gt06Protocol } from '../protocols/gt06/index';
import { h02Protocol } from '../protocols/h02/index';
import type { Protocol } from '../protocols/protocol';
import { CommandDispatcher } from './command-dispatcher';
import { CommandQueue } from './command-queue';
import { ConnectionRegistry, type DeviceLink } from './connection-registry';

const logger = createLogger('test', 'silent');
const UID = '359710049095095';

class FakeLink implements DeviceLink {
  readonly session = { deviceId: UID };
  readonly remote = '10.0.0.1:1';
  open = true;
  accepts = true;
  readonly written: Buffer[] = [];
  constructor(readonly protocol: Protocol) {}
  write(bytes: Buffer): boolean {
    if (!this.accepts) return false;
    this.written.push(bytes);
    return true;
  }
}

const command = (id: string, type = 'engineStop', attributes: Record<string, unknown> = {}): CommandMessage => ({
  id,
  deviceId: 42,
  uniqueId: UID,
  type,
  attributes,
  requestedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, Number(id.replace(/\D/g, '')) || 0)).toISOString(),
});

let bus: MemoryBus;
let cache: MemoryCache;
let connections: ConnectionRegistry;
let dispatcher: CommandDispatcher;
let queue: CommandQueue;
const events: EventMessage[] = [];
/** What the dispatcher gave its `record` (in the service: ClickHouse's events, then events.v1; tcp-ports.test.ts reads ClickHouse). */
const recorded: EventMessage[] = [];
/** How many next `record` calls fail, as a store that is down would. */
let recordFailures = 0;

beforeEach(async () => {
  bus = new MemoryBus(1, 10);
  cache = new MemoryCache();
  connections = new ConnectionRegistry();
  queue = new CommandQueue(cache);
  recordFailures = 0;
  recorded.length = 0;
  const record = async (evs: EventMessage[]): Promise<void> => {
    if (recordFailures > 0) {
      recordFailures--;
      throw new Error('ClickHouse is unavailable');
    }
    recorded.push(...evs);
    await bus.publish(
      Topics.events,
      evs.map((e) => ({ key: String(e.deviceId), value: e })),
    );
  };
  dispatcher = new CommandDispatcher({ bus, cache, connections, clock: systemClock, logger, record });
  events.length = 0;
  await bus.subscribe({
    groupId: 'events',
    topics: [Topics.events],
    fromBeginning: true,
    handler: async (ms) => void events.push(...ms.map((m) => JSON.parse(m.value) as EventMessage)),
  });
});
afterEach(async () => {
  await dispatcher.stop();
  await bus.close();
});

describe('CommandDispatcher', () => {
  it('sends queued commands oldest first when the device binds, once each, with a queuedCommandSent event', async () => {
    await queue.add(command('c2'));
    await queue.add(command('c1', 'custom', { data: 'STATUS#' }));
    const link = new FakeLink(gt06Protocol);
    connections.bind(UID, link);
    await dispatcher.deliver(UID);
    expect(link.written.map((b) => b.toString('latin1'))).toEqual([
      expect.stringContaining('STATUS#'),
      expect.stringContaining('Relay,1#'),
    ]);
    expect(await queue.pending(UID)).toEqual([]);
    await queue.add(command('c2')); // redelivered after it was sent: not queued again
    await dispatcher.deliver(UID);
    expect(link.written).toHaveLength(2);
    // a marker on the device's key after the deliveries: once it is consumed, every event they published is too
    await bus.publish(Topics.events, [{ key: '42', value: { type: 'marker', attributes: {} } }]);
    await vi.waitFor(() => expect(events.at(-1)?.type).toBe('marker'));
    expect(events.slice(0, -1).map((e) => [e.type, e.attributes.commandId])).toEqual([
      ['queuedCommandSent', 'c1'],
      ['queuedCommandSent', 'c2'],
    ]);
    expect(recorded.map((e) => e.id)).toEqual(['42-queuedCommandSent-c1', '42-queuedCommandSent-c2']);
  });

  it('names a queued command of ops-api (decimal text on commands.v1) by its integer id, as POST /commands/send answered it', async () => {
    await queue.add({ ...command('c1'), id: '9007199254740991' });
    await queue.add({ ...command('c2'), id: '17' });
    await queue.add({ ...command('c3'), id: '9007199254740993' });
    connections.bind(UID, new FakeLink(gt06Protocol));
    await dispatcher.deliver(UID);
    // beyond a safe integer the text stays text: a number would name another command
    expect(recorded.map((e) => e.attributes.commandId).sort((a, b) => String(a).localeCompare(String(b)))).toEqual([
      17,
      9007199254740991,
      '9007199254740993',
    ]);
  });

  it('records the queuedCommandSent event once its store is back, and does not send the command again meanwhile', async () => {
    recordFailures = 2;
    await queue.add(command('c7'));
    const link = new FakeLink(gt06Protocol);
    connections.bind(UID, link);
    await dispatcher.deliver(UID);
    expect(recorded.map((e) => [e.type, e.attributes.commandId])).toEqual([['queuedCommandSent', 'c7']]);
    expect(link.written).toHaveLength(1);
    expect(await queue.pending(UID)).toEqual([]);
  });

  it('keeps a command queued (and unclaimed) when the write fails, and sends it on the next connection', async () => {
    await queue.add(command('c3'));
    const broken = new FakeLink(gt06Protocol);
    broken.accepts = false;
    connections.bind(UID, broken);
    await dispatcher.deliver(UID);
    expect((await queue.pending(UID)).map((c) => c.id)).toEqual(['c3']);
    const fresh = new FakeLink(gt06Protocol);
    connections.bind(UID, fresh);
    await dispatcher.deliver(UID);
    expect(fresh.written).toHaveLength(1);
  });

  it('drops commands a protocol cannot encode, counted, instead of keeping them forever', async () => {
    await queue.add(command('c4'));
    const h02 = new FakeLink(h02Protocol);
    connections.bind(UID, h02);
    await dispatcher.deliver(UID);
    expect(h02.written).toHaveLength(0);
    expect(await queue.pending(UID)).toEqual([]);
    await queue.add(command('c5', 'rebootDevice'));
    const gt06 = new FakeLink(gt06Protocol);
    connections.bind(UID, gt06);
    await dispatcher.deliver(UID);
    expect(gt06.written).toHaveLength(0);
    expect(await queue.pending(UID)).toEqual([]);
  });

  it('consumes commands.v1: queues them and sends to a connected device', async () => {
    await dispatcher.start();
    const link = new FakeLink(gt06Protocol);
    connections.bind(UID, link);
    await bus.publish(Topics.commands, [
      { key: '42', value: command('c6') },
      { key: '42', value: { id: 'bad' } },
    ]);
    await vi.waitFor(() => expect(link.written).toHaveLength(1));
    await vi.waitFor(() => expect(bus.size(`${Topics.commands}.dlq`)).toBeGreaterThanOrEqual(1)); // the invalid message went to the DLQ
  });
});
