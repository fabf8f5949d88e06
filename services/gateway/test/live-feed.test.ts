import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  Topics,
  type DeviceRegistryMessage,
  type EventMessageInput,
  type PositionMessageInput,
  type SocketMessage,
  type WebNotificationMessage,
  positionId,
} from '@corridor/contracts';
import { cacheKeys, eventNumericId, toApiEvent } from '@corridor/platform';
import { EventMessage } from '@corridor/contracts';
import { ADMIN, createUser, login, startGateway, tokenFor, type Harness } from './harness';
import { eventually } from '@corridor/platform/testing/eventually';
import { offlineGeocoder } from '@corridor/geodata/reverse-geocoder';

/**
 * The live feed (/api/socket) fed from the bus: the first frame is the latest position of each
 * device the user may see; then positions, device changes and events, each only to the users who
 * may see the device; `{}` as keepalive. A journey flag on events.v1 reaches, as allEvents, the
 * dispatcher of the device's company who asked for every event (?allEvents=true), and not another
 * company's user; a socket that did not ask gets none. A rule's web notification reaches its user
 * only, as Traccar's `events` frame with the sentence.
 */
let h: Harness;
let base: string;
const t0 = Date.now() - 60000;

const device = (id: number, companyId: number, name = `Truck ${id}`): DeviceRegistryMessage => ({
  id,
  uniqueId: `86000000000${id}`,
  name,
  disabled: false,
  companyId,
  groupId: null,
  status: 'online',
  deleted: false,
});
const position = (deviceId: number, offsetS: number): PositionMessageInput => ({
  id: positionId(deviceId, t0 + offsetS * 1000),
  deviceId,
  uniqueId: `86000000000${deviceId}`,
  protocol: 'osmand',
  fixTime: new Date(t0 + offsetS * 1000).toISOString(),
  serverTime: new Date().toISOString(),
  valid: true,
  latitude: -1.3 - deviceId / 100,
  longitude: 36.8,
  speed: 20,
  course: 90,
});
const flag = (deviceId: number, n: number): EventMessageInput => ({
  id: `${deviceId}-journeyFlagOpened-${t0 + n}`,
  type: 'journeyFlagOpened',
  eventTime: new Date(t0 + n).toISOString(),
  deviceId,
  journeyId: `J-${deviceId}`,
  attributes: { kind: 'route_deviation', distanceM: 1800 },
});

class Client {
  readonly frames: SocketMessage[] = [];
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (data) => this.frames.push(JSON.parse(String(data)) as SocketMessage));
  }
  static open(url: string, headers: Record<string, string> = {}): Promise<Client> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { headers });
      const c = new Client(ws);
      ws.once('open', () => resolve(c));
      ws.once('unexpected-response', (_req, res) => reject(Object.assign(new Error(`HTTP ${res.statusCode}`), { status: res.statusCode })));
      ws.once('error', reject);
    });
  }
  /** The first frame `pred` accepts, once it arrived; `poke` re-publishes (at most every 1.5 s) while none has. */
  async waitFor(pred: (f: SocketMessage) => boolean, ms = 20000, poke?: () => Promise<void>): Promise<SocketMessage> {
    let lastPoke = 0;
    return eventually(
      'a matching frame',
      async () => {
        const hit = this.frames.find(pred);
        // a consumer that has just joined reads from "now": re-publish until it arrives
        if (!hit && poke && Date.now() - lastPoke > 1500) {
          lastPoke = Date.now();
          await poke();
        }
        return hit;
      },
      ms,
    ).catch((err: Error) => {
      throw new Error(`${err.message}; got ${JSON.stringify(this.frames).slice(0, 500)}`);
    });
  }
  close() {
    this.ws.close();
  }
}

const hasEvent = (deviceId: number) => (f: SocketMessage) => Boolean(f.allEvents?.some((e) => e.deviceId === deviceId));

let dispatcher: Client;
let otherCompany: Client;
let admin: Client;
let linked: Client;
let dispatcherId: number;
let linkedId: number;

beforeAll(async () => {
  h = await startGateway({ env: { SOCKET_KEEPALIVE_MS: '1000' } });
  const { bus, cache } = h.adapters;
  await bus.publish(
    Topics.devices,
    [1, 2].map((id) => ({ key: String(id), value: device(id, id === 1 ? 101 : 202) })),
  );
  for (const id of [1, 2])
    await cache.set(
      cacheKeys.latestPosition(id),
      JSON.stringify({
        ...position(id, 0),
        altitude: null,
        accuracy: null,
        satellites: null,
        hdop: null,
        ignition: null,
        odometer: null,
        power: null,
        battery: null,
        alarm: null,
        crcValid: true,
        rawFrameId: null,
        attributes: {},
      }),
    );
  await h.gateway.start();
  await eventually("both devices in the live feed's directory", () => h.gateway.liveFeed.directory.size >= 2);
  await h.gateway.app.listen({ host: '127.0.0.1', port: 0 });
  base = `ws://127.0.0.1:${(h.gateway.app.server.address() as AddressInfo).port}/api/socket`;

  const d = await createUser(h, ['dispatcher'], 101);
  const o = await createUser(h, ['company_user'], 202);
  const l = await createUser(h, ['company_user'], 303);
  const adminToken = await tokenFor(h, 1);
  await h.gateway.app.inject({
    method: 'POST',
    url: '/api/permissions',
    headers: { authorization: `Bearer ${adminToken}` },
    payload: { userId: l.id, deviceId: 2 },
  });
  const origin = base.replace('ws:', 'http:').replace('/api/socket', '');
  dispatcherId = d.id;
  linkedId = l.id;
  dispatcher = await Client.open(`${base}?allEvents=true`, { cookie: await login(h, d.email, d.plainPassword), origin });
  otherCompany = await Client.open(`${base}?token=${await tokenFor(h, o.id)}&allEvents=true`);
  admin = await Client.open(`${base}?allEvents=true`, { authorization: `Bearer ${adminToken}` });
  linked = await Client.open(`${base}?token=${await tokenFor(h, l.id)}`); // a Traccar client: no allEvents
}, 90000);

afterAll(async () => {
  for (const c of [dispatcher, otherCompany, admin, linked]) c?.close();
  await h?.close();
});

describe('live feed', () => {
  it('opens with the latest position of each device the user may see, and nothing else', async () => {
    const first = (c: Client) => c.waitFor(() => true).then(() => c.frames[0]!);
    expect((await first(dispatcher)).positions?.map((p) => p.deviceId)).toEqual([1]);
    expect((await first(otherCompany)).positions?.map((p) => p.deviceId)).toEqual([2]);
    expect((await first(admin)).positions?.map((p) => p.deviceId)).toEqual([1, 2]);
    expect((await first(linked)).positions?.map((p) => p.deviceId)).toEqual([2]); // through /permissions
    // each with its address (the offline geocoder, hand-checked in packages/geodata)
    for (const p of (await first(admin)).positions!) expect(p.address).toBe(offlineGeocoder().reverse(p.latitude, p.longitude).address);
  });

  it("delivers a journey flag on events.v1 to the dispatcher of the device's company and not to another company's user", async () => {
    const { bus } = h.adapters;
    const got = await dispatcher.waitFor(hasEvent(1), 30000, () => bus.publish(Topics.events, [{ key: '1', value: flag(1, 1) }]));
    expect(got.allEvents![0]).toMatchObject({
      id: eventNumericId(flag(1, 1).id),
      type: 'journeyFlagOpened',
      deviceId: 1,
      journeyId: 'J-1',
      positionId: 0,
      geofenceId: 0,
      attributes: { kind: 'route_deviation' },
      address: null,
    });
    expect(Object.keys(got)).toEqual(['allEvents']);
    await admin.waitFor(hasEvent(1));
    // a later event of the other company's device reaches that user: frames arrive in order, so
    // had the first flag been sent to them it would be here already
    await otherCompany.waitFor(hasEvent(2), 30000, () => bus.publish(Topics.events, [{ key: '2', value: flag(2, 2) }]));
    expect(otherCompany.frames.some(hasEvent(1))).toBe(false);
    expect(dispatcher.frames.some(hasEvent(2))).toBe(false);
  });

  it('streams positions and device changes filtered the same way', async () => {
    const { bus } = h.adapters;
    const streamed = await dispatcher.waitFor(
      (f) => Boolean(f.positions?.some((p) => p.id === position(1, 30).id)),
      30000,
      () => bus.publish(Topics.positions, [{ key: '1', value: position(1, 30) }]),
    );
    expect(streamed.positions!.find((p) => p.id === position(1, 30).id)!.address).toBe(offlineGeocoder().reverse(-1.31, 36.8).address);
    await bus.publish(Topics.devices, [{ key: '1', value: device(1, 101, 'Renamed truck') }]);
    const change = await dispatcher.waitFor((f) => Boolean(f.devices?.some((d) => d.name === 'Renamed truck')));
    expect(change.devices![0]).toMatchObject({ id: 1, companyId: 101 });
    await otherCompany.waitFor(
      (f) => Boolean(f.positions?.some((p) => p.id === position(2, 30).id)),
      30000,
      () => bus.publish(Topics.positions, [{ key: '2', value: position(2, 30) }]),
    );
    expect(otherCompany.frames.some((f) => f.positions?.some((p) => p.deviceId === 1) || f.devices?.some((d) => d.id === 1))).toBe(false);
  });

  it("gives an alarm with a position the address of where it happened, in allEvents and in the rule's notification (the alert)", async () => {
    const { bus } = h.adapters;
    const sos: EventMessageInput = {
      id: `1-alarm-${t0 + 50}`,
      type: 'alarm',
      eventTime: new Date(t0 + 50).toISOString(),
      deviceId: 1,
      latitude: -3.31,
      longitude: 38.47,
      attributes: { alarm: 'sos' },
    };
    const id = eventNumericId(sos.id);
    const got = await dispatcher.waitFor(
      (f) => Boolean(f.allEvents?.some((e) => e.id === id)),
      30000,
      () => bus.publish(Topics.events, [{ key: '1', value: sos }]),
    );
    expect(got.allEvents!.find((e) => e.id === id)).toMatchObject({ type: 'alarm', address: '14 km NW of Voi, KE' });
    const alert: WebNotificationMessage = {
      userId: dispatcherId,
      ruleId: 9,
      event: toApiEvent(EventMessage.parse(sos), 'SOS from Truck 1'),
    };
    await bus.publish(Topics.webNotifications, [{ key: String(dispatcherId), value: alert }]);
    const popped = await dispatcher.waitFor((f) => Boolean(f.events?.some((e) => e.id === id)));
    expect(popped.events!.find((e) => e.id === id)).toMatchObject({
      attributes: { message: 'SOS from Truck 1' },
      address: '14 km NW of Voi, KE',
    });
  });

  it('passes a position and an event the bus carries twice (a tracker resent an unacknowledged fix) on once', async () => {
    const { bus } = h.adapters;
    const twice = position(1, 40);
    const flagTwice = flag(1, 40);
    const sentinel = position(1, 41);
    // the consumer joined during the earlier tests; partition order puts the copies before the sentinel
    await bus.publish(Topics.positions, [
      { key: '1', value: twice },
      { key: '1', value: twice },
    ]);
    await bus.publish(Topics.events, [{ key: '1', value: flagTwice }]);
    await bus.publish(Topics.events, [{ key: '1', value: flagTwice }]);
    await bus.publish(Topics.positions, [{ key: '1', value: twice }]);
    await dispatcher.waitFor(
      (f) => Boolean(f.positions?.some((p) => p.id === sentinel.id)),
      30000,
      () => bus.publish(Topics.positions, [{ key: '1', value: sentinel }]),
    );
    const flagId = eventNumericId(flagTwice.id);
    await dispatcher.waitFor((f) => Boolean(f.allEvents?.some((e) => e.id === flagId)));
    const count = (pred: (f: SocketMessage) => number) => dispatcher.frames.reduce((n, f) => n + pred(f), 0);
    expect(count((f) => f.positions?.filter((p) => p.id === twice.id).length ?? 0)).toBe(1);
    expect(count((f) => f.allEvents?.filter((e) => e.id === flagId).length ?? 0)).toBe(1);
  });

  it('never streams a fix ingest marked clockAhead (dated past the allowed skew) as a current position (issue 23)', async () => {
    const { bus } = h.adapters;
    const ahead = { ...position(1, 590), attributes: { clockAhead: 530 } }; // t0 is a minute ago: 9 min ahead, as the sweep's
    const marker = position(1, 51);
    await bus.publish(Topics.positions, [{ key: '1', value: ahead }]);
    // one key keeps its order: the marker's arrival means the fix ahead was handled before it
    await dispatcher.waitFor(
      (f) => Boolean(f.positions?.some((p) => p.id === marker.id)),
      30000,
      () => bus.publish(Topics.positions, [{ key: '1', value: marker }]),
    );
    expect(dispatcher.frames.some((f) => f.positions?.some((p) => p.id === ahead.id))).toBe(false);
  });

  it("sends a rule's web notification to its user only, as Traccar's events frame with the sentence; a socket without ?allEvents gets no other event", async () => {
    const { bus } = h.adapters;
    const note = (userId: number, deviceId: number, n: number): WebNotificationMessage => ({
      userId,
      ruleId: 9,
      event: toApiEvent(EventMessage.parse(flag(deviceId, n)), `Truck ${deviceId} was flagged: off corridor`),
    });
    // the linked user may see device 2 (through /permissions); the dispatcher may not
    const mine = note(linkedId, 2, 50);
    const got = await linked.waitFor(
      (f) => Boolean(f.events?.some((e) => e.id === mine.event.id)),
      30000,
      () => bus.publish(Topics.webNotifications, [{ key: String(linkedId), value: mine }]),
    );
    expect(got.events![0]).toMatchObject({
      type: 'journeyFlagOpened',
      deviceId: 2,
      attributes: { message: 'Truck 2 was flagged: off corridor' },
    });
    // addressed to the dispatcher but of a device they may not see: not sent; then one they may see: sent
    const hidden = note(dispatcherId, 2, 51);
    const shown = note(dispatcherId, 1, 52);
    await bus.publish(Topics.webNotifications, [
      { key: String(dispatcherId), value: hidden },
      { key: String(dispatcherId), value: shown },
    ]);
    await dispatcher.waitFor((f) => Boolean(f.events?.some((e) => e.id === shown.event.id)));
    expect(dispatcher.frames.some((f) => f.events?.some((e) => e.id === hidden.event.id))).toBe(false);
    expect(otherCompany.frames.some((f) => f.events?.length)).toBe(false);
    expect(admin.frames.some((f) => f.events?.length)).toBe(false);
    // the flags on events.v1 of device 2 went to allEvents sockets only
    expect(linked.frames.some((f) => f.allEvents !== undefined)).toBe(false);
  });

  it('sends {} as keepalive', async () => {
    await dispatcher.waitFor((f) => Object.keys(f).length === 0, 5000);
  });

  it('refuses an upgrade without credentials (401), with a bad token (401), and a cookie from a foreign origin (403)', async () => {
    await expect(Client.open(base)).rejects.toMatchObject({ status: 401 });
    await expect(Client.open(`${base}?token=crt_bogus`)).rejects.toMatchObject({ status: 401 });
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    await expect(Client.open(base, { cookie, origin: 'https://evil.example' })).rejects.toMatchObject({ status: 403 });
    await expect(Client.open(base, { cookie, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' })).rejects.toMatchObject({
      status: 403,
    });
    const plain = await h.gateway.app.inject({ method: 'GET', url: '/api/socket', headers: { cookie } });
    expect(plain.statusCode).toBe(400);
  });

  it('takes an upgrade through a proxy that rewrote Host but kept Origin (the same rule as other requests)', async () => {
    const cookie = await login(h, ADMIN.email, ADMIN.password);
    const viaProxy = await Client.open(base, {
      cookie,
      host: 'gateway.internal:8082',
      origin: 'https://corridor.example',
      'sec-fetch-site': 'same-origin',
    });
    viaProxy.close();
    await expect(Client.open(base, { cookie, host: 'gateway.internal:8082', origin: 'https://corridor.example' })).rejects.toMatchObject({
      status: 403,
    });
  });
});
