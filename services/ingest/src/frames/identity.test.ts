import type { EventMessage } from '@corridor/contracts';
import { cacheKeys, createLogger, MemoryBus, MemoryCache, systemClock, type Cache } from '@corridor/platform';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DeviceRegistry } from '../devices/device-registry';
import { IdentityEvents } from '../devices/identity-events';
import { decodeJt808, encodeJt808, parseJt808, type Jt808Session } from '../protocols/jt808/index';
import type { DecodeResult } from '../protocols/protocol';
import { metricValue } from '../../test/metrics';
import { DeviceIdentity, type ConnectionIdentity } from './identity';

const logger = createLogger('test', 'silent');
const GT06 = { id: 7, uniqueId: '861230043123456' };
const TERMINAL = { id: 9, uniqueId: '013511221122' };
const position: DecodeResult = { kind: 'position', positions: [], crcValid: true };

let bus: MemoryBus;
let cache: MemoryCache;
let registry: DeviceRegistry;
let events: EventMessage[];

function identity(c: Cache = cache): DeviceIdentity {
  return new DeviceIdentity({
    cache: c,
    registry,
    events: new IdentityEvents({ record: async (es) => void events.push(...es), cache: c, clock: systemClock, logger }),
    logger,
  });
}
const entry = (d: { id: number; uniqueId: string }, protocol: string | null = null) => ({
  ...d,
  name: 'truck',
  disabled: false,
  companyId: 202,
  groupId: null,
  status: 'online' as const,
  deleted: false,
  protocol,
});

beforeEach(() => {
  bus = new MemoryBus(1, 10);
  cache = new MemoryCache();
  registry = new DeviceRegistry(bus, cache, logger);
  registry.apply(entry(GT06));
  registry.apply(entry(TERMINAL));
  events = [];
  down.now = false;
});
afterEach(async () => {
  await bus.close();
});

/** A JT/T 808-2013 terminal frame of the TERMINAL (phone 013511221122), built with the platform's own framing. */
const terminal = parseJt808(
  Buffer.from(
    '7E0100002D013511221122000500000000373031303748422D52303347424400000000000000000000003233363631303402CBD5424136383630387E',
    'hex',
  ),
).header;
const jt808 = (msgId: number, body: Buffer, session: Jt808Session): DecodeResult =>
  decodeJt808(encodeJt808(msgId, terminal, 1, body), session);
const REGISTER_BODY = Buffer.from('00000000373031303748422D52303347424400000000000000000000003233363631303402CBD54241363836303838', 'hex');
const LOCATION_BODY = Buffer.from('000000000000000C000301578CC006CA3A5C004700000000140723172015', 'hex');

/** The test's cache, failing every call while `down.now` is set (a Redis that does not answer). */
const down = { now: false };
const flaky = (c: Cache): Cache =>
  new Proxy(c, {
    get: (target, prop, receiver) => {
      const v = Reflect.get(target, prop, receiver) as unknown;
      return typeof v === 'function'
        ? (...args: unknown[]) =>
            down.now ? Promise.reject(new Error('cache down')) : (v as (...a: unknown[]) => unknown).apply(target, args)
        : v;
    },
  });

async function known(uniqueId: string) {
  const d = await registry.lookup(uniqueId);
  if (!d) throw new Error(`${uniqueId} not in the registry`);
  return d;
}

describe('DeviceIdentity: the protocol a device is bound to', () => {
  it('binds a device to the protocol it first spoke and refuses it on any other, with one event per reason and every refusal counted', async () => {
    const id = identity();
    const device = await known(GT06.uniqueId);
    expect(await id.check({ protocol: 'gt06', remote: '10.0.0.1:1' }, device, position)).toEqual({ accepted: true });
    expect(await cache.get(cacheKeys.deviceProtocol(GT06.id))).toBe('gt06');
    const before = await metricValue('ingest_identity_conflicts_total', { protocol: 'queclink', reason: 'protocol' });
    // the sweep's finding: a Queclink and a JT/T 808 frame carrying a GT06 truck's IMEI were stored as its positions
    expect(await id.check({ protocol: 'queclink', remote: '203.0.113.5:4000' }, device, position)).toEqual({
      accepted: false,
      reason: 'protocol',
    });
    expect(await id.check({ protocol: 'queclink', remote: '203.0.113.5:4001' }, device, position)).toEqual({
      accepted: false,
      reason: 'protocol',
    });
    expect(await metricValue('ingest_identity_conflicts_total', { protocol: 'queclink', reason: 'protocol' })).toBe(before + 2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'deviceIdentityConflict',
      deviceId: GT06.id,
      attributes: { reason: 'protocol', protocol: 'queclink', boundProtocol: 'gt06', remote: '203.0.113.5:4000', uniqueId: GT06.uniqueId },
    });
    // a new instance (nothing in memory) reads the binding from the cache
    expect(await identity().check({ protocol: 'jt808', remote: null }, device, position)).toMatchObject({
      accepted: false,
      reason: 'protocol',
    });
  });

  it("takes the administrator's protocol over the one first spoken, and forgets a claim when the registry's protocol changes", async () => {
    const id = identity();
    registry.apply(entry(GT06, 'jt701'));
    const seal = await known(GT06.uniqueId);
    expect(await id.check({ protocol: 'gt06', remote: null }, seal, position)).toMatchObject({ accepted: false, reason: 'protocol' });
    expect(await cache.get(cacheKeys.deviceProtocol(GT06.id))).toBeNull(); // nothing claimed by a refused frame
    expect(await id.check({ protocol: 'jt701', remote: null }, seal, position)).toEqual({ accepted: true });
    // the administrator clears it (ops-api deletes the claim): the next frame binds again
    await cache.del(cacheKeys.deviceProtocol(GT06.id));
    registry.apply(entry(GT06, null));
    expect(await id.check({ protocol: 'gt06', remote: null }, await known(GT06.uniqueId), position)).toEqual({ accepted: true });
    expect(await cache.get(cacheKeys.deviceProtocol(GT06.id))).toBe('gt06');
  });

  it('without the cache: a binding this instance knows still holds, an unbound device is accepted and binds later', async () => {
    const id = identity(flaky(cache));
    await id.check({ protocol: 'gt06', remote: null }, await known(GT06.uniqueId), position);
    registry.apply(entry({ id: 8, uniqueId: '861230043000008' }));
    down.now = true;
    expect(await id.check({ protocol: 'queclink', remote: null }, await known(GT06.uniqueId), position)).toMatchObject({
      accepted: false,
      reason: 'protocol',
    });
    expect(await id.check({ protocol: 'queclink', remote: null }, await known('861230043000008'), position)).toEqual({ accepted: true });
    down.now = false;
    expect(await cache.get(cacheKeys.deviceProtocol(8))).toBeNull();
    expect(await id.check({ protocol: 'queclink', remote: null }, await known('861230043000008'), position)).toEqual({ accepted: true });
    expect(await cache.get(cacheKeys.deviceProtocol(8))).toBe('queclink');
  });
});

describe('DeviceIdentity: a claim not answered yet', () => {
  it('accepts a frame that stores nothing at once, holds one that stores until the claim is answered, and refuses both once another protocol won', async () => {
    // the cache's claims wait until released (its owner busy elsewhere)
    const held: (() => void)[] = [];
    const slow = new Proxy(cache, {
      get: (target, prop, receiver) => {
        const v = Reflect.get(target, prop, receiver) as unknown;
        if (prop !== 'setIfAbsent' || typeof v !== 'function') return v;
        return (key: string, ...rest: unknown[]) =>
          key.startsWith('device:protocol:')
            ? new Promise((r) => held.push(() => r(target.setIfAbsent(key, ...(rest as [string])))))
            : target.setIfAbsent(key, ...(rest as [string]));
      },
    });
    const id = identity(slow);
    const login: DecodeResult = { kind: 'login', positions: [], crcValid: true };
    const device = await known(GT06.uniqueId);
    expect(await id.check({ protocol: 'gt06', remote: null }, device, login, { stores: false })).toEqual({ accepted: true });
    expect(held).toHaveLength(1); // the claim written, not answered
    let stored: unknown;
    const fix = id.check({ protocol: 'gt06', remote: null }, device, position).then((v) => (stored = v));
    // a heartbeat meanwhile: accepted on the claim this instance made
    expect(await id.check({ protocol: 'gt06', remote: null }, device, login, { stores: false })).toEqual({ accepted: true });
    expect(stored).toBeUndefined();
    held.shift()!();
    await fix;
    expect(stored).toEqual({ accepted: true });
    expect(await cache.get(cacheKeys.deviceProtocol(GT06.id))).toBe('gt06');

    // another device, bound by another instance while its login's claim was on its way
    registry.apply(entry({ id: 8, uniqueId: '861230043000008' }));
    const other = await known('861230043000008');
    expect(await id.check({ protocol: 'gt06', remote: null }, other, login, { stores: false })).toEqual({ accepted: true });
    await cache.set(cacheKeys.deviceProtocol(8), 'h02');
    const refused = id.check({ protocol: 'gt06', remote: null }, other, position);
    held.shift()!();
    expect(await refused).toMatchObject({ accepted: false, reason: 'protocol' });
    expect(await id.check({ protocol: 'gt06', remote: null }, other, login, { stores: false })).toMatchObject({
      accepted: false,
      reason: 'protocol',
    });
    expect(events.map((e) => e.attributes)).toEqual([expect.objectContaining({ reason: 'protocol', boundProtocol: 'h02' })]);
  });
});

describe('DeviceIdentity: JT/T 808 registration and authentication codes', () => {
  it('issues a code at the first registration, keeps only its hash, and answers a second registration with result 3', async () => {
    const id = identity();
    const first: ConnectionIdentity = {};
    const reg = jt808(0x0100, REGISTER_BODY, {});
    const v = await id.check({ protocol: 'jt808', remote: null, connection: first }, await known(TERMINAL.uniqueId), reg);
    if (!v.accepted || !v.ack) throw new Error(`registration refused: ${JSON.stringify(v)}`);
    const reply = parseJt808(v.ack);
    expect(reply.header.msgId).toBe(0x8100);
    expect(reply.body.readUInt8(2)).toBe(0);
    const code = reply.body.subarray(3).toString('latin1');
    expect(code).toMatch(/^[A-Z2-7]{12}$/);
    expect(first.authenticated).toEqual(new Set([TERMINAL.uniqueId]));
    const stored = await cache.get(cacheKeys.jt808AuthCode(TERMINAL.id));
    expect(stored).not.toContain(code);

    // a forger registering the same terminal gets no code
    const again = await id.check(
      { protocol: 'jt808', remote: '198.51.100.7:5000', connection: {} },
      await known(TERMINAL.uniqueId),
      jt808(0x0100, REGISTER_BODY, {}),
    );
    expect(again).toMatchObject({ accepted: false, reason: 'jt808_registered' });
    if (again.accepted) throw new Error('accepted');
    expect(parseJt808(again.reply!).body.toString('hex')).toBe('000103'); // reply serial 1, result 3, no code
    expect(events.map((e) => e.attributes.reason)).toEqual(['jt808_registered']);
  });

  it('accepts data only on a connection that authenticated with the issued code', async () => {
    const id = identity();
    const reg = await id.check(
      { protocol: 'jt808', remote: null, connection: {} },
      await known(TERMINAL.uniqueId),
      jt808(0x0100, REGISTER_BODY, {}),
    );
    const code = reg.accepted && reg.ack ? parseJt808(reg.ack).body.subarray(3).toString('latin1') : '';

    // a new connection: data before authentication is refused
    const later: ConnectionIdentity = {};
    const session: Jt808Session = {};
    expect(
      await id.check(
        { protocol: 'jt808', remote: null, connection: later },
        await known(TERMINAL.uniqueId),
        jt808(0x0200, LOCATION_BODY, session),
      ),
    ).toMatchObject({
      accepted: false,
      reason: 'jt808_unauthenticated',
    });
    // a wrong code: 0x8001 result 1
    const wrong = await id.check(
      { protocol: 'jt808', remote: null, connection: later },
      await known(TERMINAL.uniqueId),
      jt808(0x0102, Buffer.from('013511221122'), session),
    );
    expect(wrong).toMatchObject({ accepted: false, reason: 'jt808_code' });
    if (wrong.accepted) throw new Error('accepted');
    expect(parseJt808(wrong.reply!).body.readUInt8(4)).toBe(1);
    expect(later.authenticated).toBeUndefined();
    // the issued code: 0x8001 result 0, then data is accepted on this connection
    const right = await id.check(
      { protocol: 'jt808', remote: null, connection: later },
      await known(TERMINAL.uniqueId),
      jt808(0x0102, Buffer.from(code, 'latin1'), session),
    );
    if (!right.accepted || !right.ack) throw new Error('authentication refused');
    expect(parseJt808(right.ack).body.readUInt8(4)).toBe(0);
    expect(
      await id.check(
        { protocol: 'jt808', remote: null, connection: later },
        await known(TERMINAL.uniqueId),
        jt808(0x0200, LOCATION_BODY, session),
      ),
    ).toEqual({ accepted: true });
  });

  it('refuses an authentication of a terminal that never registered, and answers unavailable (no event) while the cache is down', async () => {
    const id = identity(flaky(cache));
    expect(
      await id.check(
        { protocol: 'jt808', remote: null, connection: {} },
        await known(TERMINAL.uniqueId),
        jt808(0x0102, Buffer.from('ANYTHING'), {}),
      ),
    ).toMatchObject({
      accepted: false,
      reason: 'jt808_code',
    });
    expect(events).toHaveLength(1);
    down.now = true;
    expect(
      await id.check({ protocol: 'jt808', remote: null, connection: {} }, await known(TERMINAL.uniqueId), jt808(0x0100, REGISTER_BODY, {})),
    ).toEqual({
      accepted: false,
      reason: 'unavailable',
    });
    expect(events).toHaveLength(1);
  });
});
