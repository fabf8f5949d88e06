import { positionId, Topics, type EventMessage, type PositionMessage } from '@corridor/contracts';
import { cacheKeys, createLogger, MemoryBus, MemoryCache, systemClock, type BusMessage } from '@corridor/platform';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RawFrameRecord } from '../archive/raw-frame-archive';
import { DeviceRegistry } from '../devices/device-registry';
import { PositionIntake } from '../positions/intake';
import { DecodeError, type DecodedPosition, type DecodeResult } from '../protocols/protocol';
import { CrcPolicyVar } from '../config';
import { AlarmIdentity } from './alarm-identity';
import { DeviceIdentity } from './identity';
import { IdentityEvents } from '../devices/identity-events';
import { FrameHandler } from './frame-handler';
import type { ReceivedFrame } from './received-frame';
import { UnknownDevicePolicy, type UnknownDevicesMode } from './unknown-devices';
import { metricValue } from '../../test/metrics';

const logger = createLogger('test', 'silent');

/** The embedded bus, remembering what was published (once the publish succeeded). */
class RecordingBus extends MemoryBus {
  readonly published = new Map<string, unknown[]>();
  /** publish calls per topic */
  readonly calls = new Map<string, number>();
  /** while set, publishes wait for it before going to the bus */
  hold: Promise<void> | undefined;
  override async publish(topic: string, messages: BusMessage[]): Promise<void> {
    this.calls.set(topic, (this.calls.get(topic) ?? 0) + 1);
    await this.hold;
    await super.publish(topic, messages);
    const list = this.published.get(topic) ?? [];
    list.push(...messages.map((m) => JSON.parse(JSON.stringify(m.value)) as unknown));
    this.published.set(topic, list);
  }
}
const IMEI = '861230043123456';

let bus: RecordingBus;
let cache: MemoryCache;
let archived: RawFrameRecord[];
/** deviceIdentityConflict events the handler recorded */
let identityEvents: EventMessage[];

beforeEach(() => {
  bus = new RecordingBus(1, 10);
  cache = new MemoryCache();
  archived = [];
  identityEvents = [];
});
afterEach(async () => {
  await bus.close();
});

function handler(
  opts: { crc?: string; unknown?: UnknownDevicesMode; maxFutureMs?: number; others?: { id: number; uniqueId: string }[] } = {},
): FrameHandler {
  const registry = new DeviceRegistry(bus, cache, logger);
  for (const d of [{ id: 7, uniqueId: IMEI }, ...(opts.others ?? [])]) {
    registry.apply({ ...d, name: 'truck', disabled: false, companyId: null, groupId: null, status: 'online', deleted: false });
  }
  const intake = new PositionIntake(
    { bus, registry, cache, clock: systemClock, logger },
    opts.maxFutureMs !== undefined ? { maxFutureMs: opts.maxFutureMs } : {},
  );
  return new FrameHandler(
    {
      intake,
      registry,
      bus,
      clock: systemClock,
      archive: { record: (r) => archived.push(r) },
      unknown: new UnknownDevicePolicy({ mode: opts.unknown ?? 'reject', bus, cache, clock: systemClock, logger }),
      crcPolicy: CrcPolicyVar.parse(opts.crc ?? 'accept'),
      alarmIds: new AlarmIdentity(cache, logger),
      identity: new DeviceIdentity({
        cache,
        registry,
        events: new IdentityEvents({ record: async (es) => void identityEvents.push(...es), cache, clock: systemClock, logger }),
        logger,
      }),
      logger,
      retry: { initialMs: 5, maxMs: 20 },
    },
    { teltonika: () => Buffer.from([0]) },
  );
}

const position = (overrides: Partial<DecodedPosition> = {}): DecodedPosition => ({
  fixTime: new Date(Date.UTC(2025, 0, 2, 3, 4, 5)),
  valid: true,
  latitude: -1.28,
  longitude: 36.82,
  speed: 30,
  course: 90,
  attributes: {},
  ...overrides,
});

function frame(result: Partial<DecodeResult> | DecodeError, uniqueId: string | null = IMEI, protocol = 'gt06'): ReceivedFrame {
  const f: ReceivedFrame = {
    protocol,
    transport: 'tcp',
    remote: '10.0.0.9:40000',
    bytes: Buffer.from('abcd', 'hex'),
    receivedAt: new Date(),
    arrivedAt: 0,
    uniqueId: uniqueId ?? undefined,
  };
  if (result instanceof DecodeError) f.error = result;
  else f.result = { kind: 'position', positions: [], crcValid: true, ...result };
  return f;
}

const messages = (topic: string): unknown[] => bus.published.get(topic) ?? [];
const open = (): boolean => true;
const ACK = Buffer.from('ack');

describe('FrameHandler', () => {
  it('publishes the positions and then answers with the ack, archiving the frame with its id', async () => {
    const v = await handler().handle(frame({ positions: [position()], ack: ACK }), open);
    expect(v).toEqual({ action: 'ack', ack: ACK, device: { id: 7, uniqueId: IMEI } });
    const [p] = messages(Topics.positions) as PositionMessage[];
    expect(p).toMatchObject({ deviceId: 7, uniqueId: IMEI, protocol: 'gt06', crcValid: true });
    expect(archived).toHaveLength(1);
    expect(archived[0]).toMatchObject({
      id: p!.rawFrameId,
      deviceId: 7,
      uniqueId: IMEI,
      outcome: 'position',
      positions: 1,
      remote: '10.0.0.9:40000',
    });
  });

  it('counts and skips a frame that did not decode, archiving the reason', async () => {
    const v = await handler().handle(frame(new DecodeError('truncated', 'short')), open);
    expect(v).toEqual({ action: 'skip', reason: 'decode_error:truncated' });
    expect(archived[0]).toMatchObject({ outcome: 'error', errorReason: 'truncated' });
  });

  it('drops positions decoded before login without an ack', async () => {
    const v = await handler().handle(frame({ positions: [position()], ack: ACK }, null), open);
    expect(v).toEqual({ action: 'skip', reason: 'no_login' });
    expect(messages(Topics.positions)).toHaveLength(0);
  });

  it('CRC policy accept (default): publishes with crcValid=false; drop: no publish, no ack', async () => {
    const bad = { positions: [position()], ack: ACK, crcValid: false };
    expect((await handler().handle(frame(bad), open)).action).toBe('ack');
    expect((messages(Topics.positions) as PositionMessage[])[0]?.crcValid).toBe(false);
    const dropping = handler({ crc: 'teltonika:accept,gt06:drop', others: [{ id: 8, uniqueId: '352093080000008' }] });
    expect(await dropping.handle(frame({ ...bad, positions: [position({ fixTime: new Date(Date.UTC(2025, 0, 2)) })] }), open)).toEqual({
      action: 'skip',
      reason: 'crc',
    });
    expect(messages(Topics.positions)).toHaveLength(1);
    // a Teltonika device (this one is bound to gt06, the protocol it first spoke)
    expect((await dropping.handle(frame(bad, '352093080000008', 'teltonika'), open)).action).toBe('ack');
  });

  it('drops the insane fixes of a frame (counted by the sanity check) and still acknowledges the frame', async () => {
    const v = await handler().handle(
      frame({ positions: [position(), position({ latitude: 95, fixTime: new Date(Date.UTC(2025, 0, 2, 3, 5)) })], ack: ACK }),
      open,
    );
    expect(v.action).toBe('ack');
    expect(messages(Topics.positions)).toHaveLength(1);
  });

  it('refuses a fix dated beyond the allowed skew (default 10 min), so it never becomes the latest position; FIX_MAX_FUTURE_SECONDS widens it', async () => {
    const ahead = (ms: number) => position({ fixTime: new Date(Date.now() + ms) });
    const before = await metricValue('ingest_positions_rejected_total', { protocol: 'gt06', reason: 'future_time' });
    // 23 h ahead (the finding: it was stored and stayed the latest position), then a current fix
    expect((await handler().handle(frame({ positions: [ahead(23 * 3600_000)], ack: ACK }), open)).action).toBe('ack');
    expect(messages(Topics.positions)).toHaveLength(0);
    expect(await metricValue('ingest_positions_rejected_total', { protocol: 'gt06', reason: 'future_time' })).toBe(before + 1);
    await handler().handle(frame({ positions: [ahead(60_000)], ack: ACK }), open);
    expect(messages(Topics.positions)).toHaveLength(1);
    // a device whose clock runs hours ahead is kept when the operator allows it
    await handler({ maxFutureMs: 24 * 3600_000 }).handle(frame({ positions: [ahead(23 * 3600_000)], ack: ACK }), open);
    expect(messages(Topics.positions)).toHaveLength(2);
  });

  it('keeps an alarm reported without a fix as a state record at the last location, and its alarm event, before the ack', async () => {
    const h = handler();
    await h.handle(frame({ positions: [position()], ack: ACK }), open);
    const at = new Date(Date.UTC(2025, 0, 2, 3, 9, 0, 400));
    const v = await h.handle(
      { ...frame({ kind: 'alarm', events: [{ alarm: 'sos' }], attributes: { batteryLevel: 50 }, ack: ACK }), receivedAt: at },
      open,
    );
    expect(v.action).toBe('ack');
    const record = (messages(Topics.positions) as PositionMessage[])[1]!;
    expect(record).toMatchObject({
      id: positionId(7, at, 'state'),
      fixTime: '2025-01-02T03:09:00.000Z',
      valid: false,
      latitude: -1.28,
      longitude: 36.82,
      alarm: 'sos',
      attributes: { outdated: true, batteryLevel: 50, alarm: 'sos', distance: 0 },
    });
    const [e] = messages(Topics.events) as EventMessage[];
    expect(e).toMatchObject({ type: 'alarm', deviceId: 7, positionId: record.id, latitude: -1.28, attributes: { alarm: 'sos' } });
  });

  it('stamps a resent alarm frame (same bytes, later arrival) with its first arrival: one record, one event; other bytes are a new alarm', async () => {
    const h = handler();
    const t = Date.UTC(2025, 0, 2, 4, 0, 0);
    const alarm = (hex: string, at: number) => ({
      ...frame({ kind: 'alarm', events: [{ alarm: 'sos' }], ack: ACK }),
      bytes: Buffer.from(hex, 'hex'),
      receivedAt: new Date(at),
    });
    await h.handle(alarm('78781301', t + 1_000), open);
    await h.handle(alarm('78781301', t + 9_000), open); // the device saw no ack and sent it again
    await h.handle(alarm('78781302', t + 9_500), open); // next serial number: a new alarm
    const ids = (messages(Topics.positions) as PositionMessage[]).map((p) => p.id);
    expect(ids).toEqual([positionId(7, t + 1_000, 'state'), positionId(7, t + 1_000, 'state'), positionId(7, t + 9_000, 'state')]);
    expect((messages(Topics.events) as EventMessage[]).map((e) => e.id)).toEqual([
      `7-alarm-${t + 1_000}-sos`,
      `7-alarm-${t + 1_000}-sos`,
      `7-alarm-${t + 9_000}-sos`,
    ]);
  });

  it('still keeps an alarm without a fix when the cache is down (stamped with its arrival), at (0, 0) without a known location', async () => {
    const h = handler();
    cache.setIfAbsent = () => Promise.reject(new Error('redis down'));
    cache.mget = () => Promise.reject(new Error('redis down'));
    const at = Date.UTC(2025, 0, 2, 5, 0, 0);
    const v = await h.handle({ ...frame({ kind: 'alarm', events: [{ alarm: 'powerCut' }], ack: ACK }), receivedAt: new Date(at) }, open);
    expect(v.action).toBe('ack');
    expect((messages(Topics.positions) as PositionMessage[])[0]).toMatchObject({
      latitude: 0,
      longitude: 0,
      valid: false,
      attributes: { outdated: true },
    });
    expect((messages(Topics.events) as EventMessage[]).map((e) => e.id)).toEqual([`7-alarm-${at}-powerCut`]);
  });

  it("keeps status and heartbeat messages with attributes as state records (the device's time when it gives one); a bare heartbeat only acks", async () => {
    const h = handler();
    expect((await h.handle(frame({ kind: 'heartbeat', ack: ACK }), open)).action).toBe('ack');
    expect(messages(Topics.positions)).toHaveLength(0);
    const deviceTime = new Date(Date.UTC(2025, 0, 2, 3, 30, 0));
    await h.handle(
      frame({ kind: 'heartbeat', attributes: { ignition: true, charge: true, battery: 4.1, rssi: 4 }, deviceTime, ack: ACK }),
      open,
    );
    await h.handle(frame({ kind: 'result', attributes: { result: 'RELAY:1' } }), open);
    const [status, reply] = messages(Topics.positions) as PositionMessage[];
    expect(status).toMatchObject({
      id: positionId(7, deviceTime, 'state'),
      fixTime: deviceTime.toISOString(),
      valid: false,
      ignition: true,
      battery: 4.1,
      attributes: { outdated: true, ignition: true, charge: true, battery: 4.1, rssi: 4, motion: false },
    });
    expect(reply).toMatchObject({ valid: false, attributes: { outdated: true, result: 'RELAY:1' } });
  });

  it('adds the server-side accumulators: distance between fixes, totalDistance, engine hours while ignition is on', async () => {
    const h = handler();
    const t = Date.UTC(2025, 0, 3, 8, 0, 0);
    await h.handle(frame({ positions: [position({ fixTime: new Date(t), ignition: true, speed: 0 })] }), open);
    await h.handle(frame({ positions: [position({ fixTime: new Date(t + 60_000), latitude: -1.27, ignition: true })] }), open);
    await h.handle(frame({ kind: 'heartbeat', attributes: { ignition: false }, deviceTime: new Date(t + 90_000) }), open);
    await h.handle(frame({ positions: [position({ fixTime: new Date(t + 30_000), latitude: -1.2 })] }), open); // out of order: counts nothing
    const [a, b, c, late] = (messages(Topics.positions) as PositionMessage[]).map((p) => p.attributes);
    expect(a).toMatchObject({ distance: 0, totalDistance: 0, hours: 0, motion: false, ignition: true });
    expect(b!.distance).toBeCloseTo(1112, -1);
    expect(b).toMatchObject({ totalDistance: b!.distance, hours: 60_000, motion: true });
    // ignition off by the heartbeat: the 30 s before it do not count (Traccar counts a leg with ignition on at both ends)
    expect(c).toMatchObject({ distance: 0, totalDistance: b!.distance, hours: 60_000, outdated: true });
    expect(late).toMatchObject({ distance: 0, totalDistance: b!.distance, hours: 60_000 });
  });

  it('takes PUT /devices/{id}/accumulators values as the base of the next position, once', async () => {
    const h = handler();
    const t = Date.UTC(2025, 0, 4, 8, 0, 0);
    await h.handle(frame({ positions: [position({ fixTime: new Date(t) })] }), open);
    await cache.set(cacheKeys.accumulatorsSet(7), JSON.stringify({ totalDistance: 1_000_000, hours: 3_600_000, setAt: Date.now() }));
    await h.handle(frame({ positions: [position({ fixTime: new Date(t + 10_000) })] }), open);
    await h.handle(frame({ positions: [position({ fixTime: new Date(t + 20_000), latitude: -1.27 })] }), open);
    const [, set, next] = (messages(Topics.positions) as PositionMessage[]).map((p) => p.attributes);
    expect(set).toMatchObject({ totalDistance: 1_000_000, hours: 3_600_000 });
    expect(next!.totalDistance).toBeCloseTo(1_000_000 + (next!.distance as number), 2);
  });

  it('keeps a command reply that came without a fix as a state record with its commandResult event (result under Traccar key), once per frame', async () => {
    const h = handler();
    const t = Date.UTC(2025, 0, 2, 6, 0, 0);
    const reply = (at: number) => ({
      ...frame({ kind: 'result', attributes: { result: 'Relay,1:Success!' }, ack: ACK }),
      bytes: Buffer.from('78781521', 'hex'),
      receivedAt: new Date(at),
    });
    expect(await h.handle(reply(t + 2_000), open)).toEqual({ action: 'ack', ack: ACK, device: { id: 7, uniqueId: IMEI } });
    await h.handle(reply(t + 6_000), open); // resent: the same record and event
    const [record, resent] = messages(Topics.positions) as PositionMessage[];
    expect(resent!.id).toBe(record!.id);
    const events = messages(Topics.events) as EventMessage[];
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      id: `7-commandResult-${t + 2_000}`,
      type: 'commandResult',
      deviceId: 7,
      positionId: record!.id,
      attributes: { result: 'Relay,1:Success!' },
    });
    expect(events[1]?.id).toBe(events[0]?.id);
  });

  it('publishes a position carrying a command reply (H02 V4) with a commandResult event for it', async () => {
    await handler().handle(frame({ positions: [position({ attributes: { result: 'S20,DONE' } })], ack: ACK }), open);
    const [p] = messages(Topics.positions) as PositionMessage[];
    const [e] = messages(Topics.events) as EventMessage[];
    expect(e).toMatchObject({ type: 'commandResult', positionId: p!.id, latitude: -1.28, attributes: { result: 'S20,DONE' } });
  });

  it('counts ignored frames per protocol and message type (unbounded labels become other) and still acknowledges them', async () => {
    const h = handler();
    const before = await metricValue('ingest_frames_ignored_total', { protocol: 'gt06', type: '0x8a' });
    const beforeOther = await metricValue('ingest_frames_ignored_total', { protocol: 'gt06', type: 'other' });
    const ignored = (type: string) =>
      frame({ kind: 'ignored', type, ignoredReason: 'time request: a reply needs the server clock', ack: ACK });
    expect((await h.handle(ignored('0x8a'), open)).action).toBe('ack');
    await h.handle(ignored('0x8a'), open);
    await h.handle(ignored('a type label far too long for a metric'), open);
    expect(await metricValue('ingest_frames_ignored_total', { protocol: 'gt06', type: '0x8a' })).toBe(before + 2);
    expect(await metricValue('ingest_frames_ignored_total', { protocol: 'gt06', type: 'other' })).toBe(beforeOther + 1);
    expect(archived.map((a) => a.outcome)).toEqual(['ignored', 'ignored', 'ignored']);
  });

  it('holds the ack and retries while the bus is down; gives up only when the connection is gone', async () => {
    const h = handler();
    const publishes = () => bus.calls.get(Topics.positions) ?? 0;
    bus.available = false;
    const held = h.handle(frame({ positions: [position()], ack: ACK }), open);
    await vi.waitFor(() => expect(publishes()).toBeGreaterThanOrEqual(2)); // retried while the bus is down
    bus.available = true;
    const v = await held;
    expect(v.action).toBe('ack');
    expect(messages(Topics.positions)).toHaveLength(1);

    bus.available = false;
    let connected = true;
    const before = publishes();
    const abandoned = h.handle(frame({ positions: [position({ fixTime: new Date(Date.UTC(2025, 0, 3)) })], ack: ACK }), () => connected);
    await vi.waitFor(() => expect(publishes()).toBeGreaterThanOrEqual(before + 2));
    connected = false;
    const gone = await abandoned;
    expect(gone).toEqual({ action: 'abandoned' });
    bus.available = true;
    expect(messages(Topics.positions)).toHaveLength(1);
  });

  it('refuses an unknown device at login (with the protocol reply) and for positions', async () => {
    const h = handler();
    expect(await h.handle(frame({ kind: 'login', deviceId: '000000000000001', ack: ACK }, '000000000000001', 'teltonika'), open)).toEqual({
      action: 'close',
      reason: 'unknown_device',
      reply: Buffer.from([0]),
    });
    expect(await h.handle(frame({ positions: [position()], ack: ACK }, '000000000000002'), open)).toEqual({
      action: 'close',
      reason: 'unknown_device',
    });
    expect(messages(Topics.devicesPending)).toHaveLength(0); // reject mode asks for nothing
  });

  it('UNKNOWN_DEVICES=pending publishes one registration request per device on devices.pending.v1', async () => {
    const h = handler({ unknown: 'pending' });
    await h.handle(frame({ kind: 'login', deviceId: '000000000000003', ack: ACK }, '000000000000003'), open);
    await h.handle(frame({ kind: 'login', deviceId: '000000000000003', ack: ACK }, '000000000000003'), open);
    await h.handle(frame({ positions: [position()] }, '000000000000004', 'h02'), open);
    expect(messages(Topics.devicesPending)).toEqual([
      { uniqueId: '000000000000003', protocol: 'gt06', remoteAddress: '10.0.0.9:40000', seenAt: expect.any(String) },
      { uniqueId: '000000000000004', protocol: 'h02', remoteAddress: '10.0.0.9:40000', seenAt: expect.any(String) },
    ]);
  });

  it('publishes the fix a login carries (TK103 BP05) before acknowledging the login', async () => {
    const v = await handler().handle(frame({ kind: 'login', deviceId: IMEI, positions: [position()], ack: ACK }), open);
    expect(v).toEqual({ action: 'ack', ack: ACK, device: { id: 7, uniqueId: IMEI } });
    expect(messages(Topics.positions)).toHaveLength(1);
  });

  it('acknowledges heartbeats of a known device and frames without data', async () => {
    expect(await handler().handle(frame({ kind: 'heartbeat', ack: ACK }), open)).toEqual({
      action: 'ack',
      ack: ACK,
      device: { id: 7, uniqueId: IMEI },
    });
  });
});

describe('FrameHandler batches (the frames a connection had queued)', () => {
  const at = (minute: number): Date => new Date(Date.UTC(2025, 0, 2, 3, minute));
  const fixFrame = (minute: number, serial: number, uniqueId = IMEI): ReceivedFrame =>
    frame({ positions: [position({ fixTime: at(minute), latitude: -1.28 - minute / 1000 })], ack: Buffer.from([serial]) }, uniqueId);

  it('publishes the batch in one call, in frame order, and gives no verdict before the bus confirmed it', async () => {
    const h = handler();
    let confirm!: () => void;
    bus.hold = new Promise((r) => (confirm = r));
    let verdicts: unknown[] | undefined;
    const done = h.handleBatch([fixFrame(1, 1), fixFrame(2, 2), fixFrame(3, 3)], open).then((v) => (verdicts = v));
    await vi.waitFor(() => expect(bus.calls.get(Topics.positions)).toBe(1));
    await new Promise((r) => setImmediate(r));
    expect(verdicts).toBeUndefined(); // held by the bus: no frame of the batch has its ack verdict
    confirm();
    await done;
    expect(verdicts).toEqual([1, 2, 3].map((n) => ({ action: 'ack', ack: Buffer.from([n]), device: { id: 7, uniqueId: IMEI } })));
    expect(bus.calls.get(Topics.positions)).toBe(1);
    const published = messages(Topics.positions) as PositionMessage[];
    expect(published.map((p) => p.fixTime)).toEqual([1, 2, 3].map((n) => at(n).toISOString()));
    // each record keeps its own frame's raw-frame id
    expect(published.map((p) => p.rawFrameId)).toEqual(archived.map((a) => a.id));
    // the accumulators run through the batch in order
    expect(published[0]!.attributes.distance).toBe(0);
    expect(published[2]!.attributes.totalDistance).toBeCloseTo(
      (published[1]!.attributes.distance as number) + (published[2]!.attributes.distance as number),
      1,
    ); // rounded to cm
  });

  it('saves the track state once per device per batch', async () => {
    const sets: string[] = [];
    const set = cache.set.bind(cache);
    cache.set = (key, value, ttl) => {
      sets.push(key);
      return set(key, value, ttl);
    };
    await handler().handleBatch([fixFrame(1, 1), fixFrame(2, 2), fixFrame(3, 3), fixFrame(4, 4)], open);
    await vi.waitFor(() => expect(sets.filter((k) => k === 'ingest:track:7')).toHaveLength(1));
  });

  it('while the bus is down acknowledges none of the batch; gone connection: every frame abandoned, nothing published', async () => {
    const h = handler();
    bus.available = false;
    let connected = true;
    const batch = h.handleBatch([fixFrame(1, 1), fixFrame(2, 2)], () => connected);
    await vi.waitFor(() => expect(bus.calls.get(Topics.positions) ?? 0).toBeGreaterThanOrEqual(2)); // retried
    connected = false;
    expect(await batch).toEqual([{ action: 'abandoned' }, { action: 'abandoned' }]);
    expect(messages(Topics.positions)).toHaveLength(0);

    bus.available = false;
    const before = bus.calls.get(Topics.positions) ?? 0;
    const pending = h.handleBatch([fixFrame(1, 1), fixFrame(2, 2)], open);
    await vi.waitFor(() => expect(bus.calls.get(Topics.positions) ?? 0).toBeGreaterThanOrEqual(before + 2)); // retried
    bus.available = true;
    const later = await pending;
    expect(later.map((v) => v.action)).toEqual(['ack', 'ack']);
    expect(messages(Topics.positions)).toHaveLength(2);
  });

  it('a frame the intake refuses costs only itself: the others of the batch are stored and acknowledged, in order', async () => {
    const FAR = '861230043999999'; // its id is past what position ids hold: the intake refuses its fixes
    const h = handler({ others: [{ id: 2 ** 21, uniqueId: FAR }] });
    const verdicts = await h.handleBatch([fixFrame(1, 1), fixFrame(2, 2, FAR), fixFrame(3, 3)], open);
    expect(verdicts.map((v) => v.action)).toEqual(['ack', 'skip', 'ack']);
    expect((messages(Topics.positions) as PositionMessage[]).map((p) => p.fixTime)).toEqual([at(1), at(3)].map((d) => d.toISOString()));
  });

  it('frames after one that closes the connection are not handled', async () => {
    const h = handler();
    const verdicts = await h.handleBatch(
      [fixFrame(1, 1), frame({ kind: 'login', deviceId: '000000000000001', ack: ACK }, '000000000000001'), fixFrame(2, 2)],
      open,
    );
    expect(verdicts.map((v) => v.action)).toEqual(['ack', 'close', 'abandoned']);
    expect(messages(Topics.positions)).toHaveLength(1);
  });
});

describe('CRC_POLICY', () => {
  it('parses one action or per-protocol actions and names a bad entry', () => {
    expect(CrcPolicyVar.parse(undefined)).toEqual({ default: 'accept' });
    expect(CrcPolicyVar.parse('drop')).toEqual({ default: 'drop' });
    expect(CrcPolicyVar.parse('gt06:drop, meitrack:accept')).toEqual({ default: 'accept', gt06: 'drop', meitrack: 'accept' });
    expect(CrcPolicyVar.safeParse('gt06:maybe').error?.issues[0]?.message).toContain('gt06:maybe');
  });
});
