import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { Topics } from '@corridor/contracts';
import { bridgedParts, cacheKeys, serveBridge, type MemoryBus } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { TEST_IDENTITY_SECRET } from '@corridor/platform/testing/identity';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { MIRRORED_KEYS, MIRRORED_WHOLE } from '../src/threads/mirrored-keys';
import { gt06, registryEntry, TestDevice } from './test-device';

/**
 * An ingest thread of the one-process stack acks a fix once it is posted to the main thread's bus
 * (issue 28), not once the main thread answered: here the ingest runs on the far end of the thread
 * bridge, and a relay between the two ends holds everything the far end sends, as a main thread busy
 * with its consumers does not read its port. Within the posted window fixes are acked meanwhile;
 * beyond it they wait; a login does not, not even a never-seen device's first (its protocol claim
 * is written without waiting; its fixes wait for the claim's answer); every acked fix reaches the
 * bus once; closing waits for what was posted.
 */
const WINDOW = 4;
const STREAMER = { id: 4401, imei: '359710049077701' };
const RETURNER = { id: 4402, imei: '359710049077702' };
const NEWCOMER = { id: 4403, imei: '359710049077703' };
const RIVAL = { id: 4404, imei: '359710049077704' };
const t0 = Date.UTC(2025, 6, 1, 8, 0, 0);
const ACK = 10; // bytes of a GT06 ack

let adapters: TestAdapters;
let svc: IngestService | undefined;
let port: number;
let stopBridge: () => Promise<void>;
let far: ReturnType<typeof bridgedParts>;
/** The relay: while `holding`, what the far end sends waits here (the main thread is busy). */
const relay = { holding: false, held: [] as unknown[], release: () => undefined as void };

function relayed(farEnd: MessagePort, ownerEnd: MessagePort): void {
  farEnd.on('message', (m: unknown) => (relay.holding ? relay.held.push(m) : ownerEnd.postMessage(m)));
  ownerEnd.on('message', (m: unknown) => farEnd.postMessage(m));
  relay.release = () => {
    relay.holding = false;
    for (const m of relay.held.splice(0)) ownerEnd.postMessage(m);
  };
}

beforeAll(async () => {
  adapters = await createTestAdapters('embedded');
  const owner = new MessageChannel();
  const farSide = new MessageChannel();
  relayed(farSide.port1, owner.port2);
  stopBridge = serveBridge({ bus: adapters.bus, cache: adapters.cache }, owner.port1);
  far = bridgedParts(
    farSide.port2,
    { bus: 'memory', cache: 'memory' },
    {
      postedWindow: WINDOW,
      mirrored: MIRRORED_KEYS,
      mirroredWhole: MIRRORED_WHOLE,
    },
  );
  svc = await build({
    ...adapters,
    bus: far.bus,
    cache: far.cache,
    identitySecret: TEST_IDENTITY_SECRET,
    threading: { positionStore: false },
  });
  await svc.start();
  for (const d of [STREAMER, RETURNER, NEWCOMER, RIVAL]) svc.registry.apply(registryEntry(d.id, d.imei));
  port = await svc.ports.tcp.gt06.listen(0, '127.0.0.1');
}, 60_000);

afterAll(async () => {
  relay.release();
  await svc?.close();
  await far?.bus.close();
  await stopBridge?.();
  await adapters?.close();
});

const positions = (): number => (adapters.bus as MemoryBus).size(Topics.positions);

describe('posted publishes of an ingest thread', () => {
  it('acks fixes within the window while the main thread takes nothing, holds the next, never a login, and each reaches the bus once', async () => {
    const streamer = await TestDevice.open(port);
    await streamer.write(gt06.login(STREAMER.imei, 1));
    await streamer.waitReceived(ACK);
    await streamer.write(gt06.location(new Date(t0), -1.3, 36.8, 2));
    await streamer.waitReceived(2 * ACK);
    const returner = await TestDevice.open(port);
    await returner.write(gt06.login(RETURNER.imei, 1));
    await returner.waitReceived(ACK);
    returner.close();
    await eventually('the first fix on the bus and nothing posted', () => positions() === 1 && far.bus.postedPending === 0);

    // the main thread busy: nothing the thread sends is taken
    relay.holding = true;
    for (let i = 1; i <= WINDOW; i++) {
      await streamer.write(gt06.location(new Date(t0 + i * 1000), -1.3, 36.8, 2 + i));
      await streamer.waitReceived((2 + i) * ACK); // acked without the main thread
    }
    expect(far.bus.postedPending).toBe(WINDOW);
    expect(positions()).toBe(1);
    // beyond the window the fix waits for room
    await streamer.write(gt06.location(new Date(t0 + 10_000), -1.3, 36.8, 20));
    // a tracker that logged in before reconnects and logs in: acked at once (the marker)
    const back = await TestDevice.open(port);
    await back.write(gt06.login(RETURNER.imei, 2));
    await back.waitReceived(ACK);
    await eventually('the held fix admitted and waiting for room', () => svc!.ports.gate.pendingFixes >= 1);
    expect(streamer.received.length).toBe((2 + WINDOW) * ACK);
    expect(positions()).toBe(1);

    // the main thread takes what was posted: the held fix is acked, every fix is on the bus once
    relay.release();
    await streamer.waitReceived((3 + WINDOW) * ACK);
    await eventually('every acked fix on the bus', () => positions() === 2 + WINDOW && far.bus.postedPending === 0);
    const times = new Set<string>();
    const sub = await adapters.bus.subscribe({
      groupId: 'posted-window-check',
      topics: [Topics.positions],
      fromBeginning: true,
      handler: async (ms) => {
        for (const m of ms) times.add((JSON.parse(m.value) as { fixTime: string }).fixTime);
      },
    });
    await eventually('all read back', () => times.size === 2 + WINDOW);
    await sub.stop();
    expect(positions()).toBe(2 + WINDOW);
    streamer.close();
    back.close();
  });

  it("acks a never-seen device's first login while the main thread takes nothing, and stores its fixes only once its claim is granted", async () => {
    const streamer = await TestDevice.open(port);
    await streamer.write(gt06.login(STREAMER.imei, 1));
    await streamer.waitReceived(ACK);
    await eventually('nothing posted', () => far.bus.postedPending === 0);
    const before = positions();
    // the main thread busy behind a full window of posted fixes: nothing the thread sends is taken
    relay.holding = true;
    for (let i = 1; i <= WINDOW; i++) {
      await streamer.write(gt06.location(new Date(t0 + 200_000 + i * 1000), -1.3, 36.8, 2 + i));
      await streamer.waitReceived((1 + i) * ACK);
    }
    expect(far.bus.postedPending).toBe(WINDOW);
    // two devices no instance has seen log in: both acked, their claims written and not answered
    const newcomer = await TestDevice.open(port);
    await newcomer.write(gt06.login(NEWCOMER.imei, 1));
    await newcomer.waitReceived(ACK);
    const rival = await TestDevice.open(port);
    await rival.write(gt06.login(RIVAL.imei, 1));
    await rival.waitReceived(ACK);
    expect(relay.holding).toBe(true);
    expect(positions()).toBe(before);
    expect(await adapters.cache.get(cacheKeys.deviceProtocol(NEWCOMER.id))).toBeNull(); // the claim has not reached the main thread
    // meanwhile another instance binds the rival to another protocol (its claim reaches the main thread first)
    await adapters.cache.setIfAbsent(cacheKeys.deviceProtocol(RIVAL.id), 'h02');
    // their fixes wait for the claims' answers (the window is full too)
    await newcomer.write(gt06.location(new Date(t0 + 300_000), -1.2, 36.7, 2));
    await rival.write(gt06.location(new Date(t0 + 300_000), -1.1, 36.6, 2));
    // the marker: a login after those fixes, acked at once while they still wait
    const marker = await TestDevice.open(port);
    await marker.write(gt06.login(RETURNER.imei, 3));
    await marker.waitReceived(ACK);
    marker.close();
    expect(newcomer.received.length).toBe(ACK);
    expect(rival.received.length).toBe(ACK);

    // the main thread takes what was posted: the newcomer's claim is granted and its fix stored; the
    // rival's claim is refused and its fix with it, the connection closed unacknowledged
    relay.release();
    await newcomer.waitReceived(2 * ACK);
    await rival.waitClosed();
    expect(rival.received.length).toBe(ACK);
    expect(await adapters.cache.get(cacheKeys.deviceProtocol(NEWCOMER.id))).toBe('gt06');
    expect(await adapters.cache.get(cacheKeys.deviceProtocol(RIVAL.id))).toBe('h02');
    await eventually('every acked fix on the bus', () => positions() === before + WINDOW + 1 && far.bus.postedPending === 0);
    streamer.close();
    newcomer.close();
  });

  it('closes only once every posted fix was taken by the main thread', async () => {
    const before = positions();
    const streamer = await TestDevice.open(port);
    await streamer.write(gt06.login(STREAMER.imei, 1));
    await streamer.waitReceived(ACK);
    relay.holding = true;
    for (let i = 1; i <= 3; i++) {
      await streamer.write(gt06.location(new Date(t0 + 100_000 + i * 1000), -1.3, 36.8, 2 + i));
      await streamer.waitReceived((1 + i) * ACK);
    }
    streamer.close();
    let closed = false;
    const closing = (async () => {
      await svc!.close();
      await far.bus.close();
      closed = true;
    })();
    svc = undefined;
    // the close went as far as it can alone (the device ports closed), and waits for what was posted
    await eventually('the device port closed', async () =>
      TestDevice.open(port).then(
        (d) => {
          d.close();
          return false;
        },
        () => true,
      ),
    );
    expect(closed).toBe(false);
    expect(far.bus.postedPending).toBeGreaterThanOrEqual(3); // the 3 fixes and the session messages
    relay.release();
    await closing;
    expect(closed).toBe(true);
    expect(far.bus.postedPending).toBe(0);
    expect(positions()).toBe(before + 3);
  });
});
