import { describe, expect, it } from 'vitest';
import { Topics, type DeviceSessionMessage } from '@corridor/contracts';
import { createLogger, MemoryBus, type BusMessage } from '@corridor/platform';
import { DeviceSessions } from './device-sessions';

class RecordingBus extends MemoryBus {
  readonly sent: DeviceSessionMessage[] = [];
  failNext = false;
  override async publish(topic: string, messages: BusMessage[]): Promise<void> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error('bus down');
    }
    await super.publish(topic, messages);
    if (topic === Topics.deviceStatus) this.sent.push(...messages.map((m) => m.value as DeviceSessionMessage));
  }
}

describe('DeviceSessions', () => {
  it('says connected, seen at most once per interval, and disconnected once, in order', async () => {
    const bus = new RecordingBus(1, 10);
    let now = Date.UTC(2026, 2, 1);
    const sessions = new DeviceSessions({
      bus,
      clock: { now: () => new Date(now) },
      logger: createLogger('test', 'silent'),
      seenIntervalMs: 60_000,
    });
    const s = sessions.start({ id: 4, uniqueId: 'u4' }, 'gt06');
    now += 10_000;
    s.seen(); // within the interval of `connected`: nothing
    now += 55_000;
    s.seen();
    s.seen();
    s.end();
    s.end();
    s.seen();
    await sessions.drain();
    expect(bus.sent.map((m) => m.type)).toEqual(['connected', 'seen', 'disconnected']);
    expect(new Set(bus.sent.map((m) => m.connectionId)).size).toBe(1);
    expect(bus.sent[1]).toMatchObject({
      deviceId: 4,
      uniqueId: 'u4',
      protocol: 'gt06',
      time: new Date(Date.UTC(2026, 2, 1) + 65_000).toISOString(),
    });
    const other = sessions.start({ id: 4, uniqueId: 'u4' }, 'gt06');
    other.end();
    await sessions.drain();
    expect(bus.sent[3]!.connectionId).not.toBe(bus.sent[0]!.connectionId);
    await bus.close();
  });

  it('never throws on a bus failure (counted and logged) and goes on with the next message', async () => {
    const bus = new RecordingBus(1, 10);
    const sessions = new DeviceSessions({
      bus,
      clock: { now: () => new Date() },
      logger: createLogger('test', 'silent'),
      seenIntervalMs: 60_000,
    });
    bus.failNext = true;
    const s = sessions.start({ id: 9, uniqueId: 'u9' }, 'h02');
    s.end();
    await sessions.drain();
    expect(bus.sent.map((m) => m.type)).toEqual(['disconnected']);
    await bus.close();
  });
});
