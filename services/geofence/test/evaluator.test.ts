import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishGroups } from '@corridor/platform/testing/registry';
import { sql } from 'drizzle-orm';
import {
  EventMessage,
  Topics,
  type DeviceRegistryMessage,
  type Geofence,
  type GeofenceInputBody,
  type PositionMessage,
  positionId,
} from '@corridor/contracts';
import { cacheKeys, type Subscription } from '@corridor/platform';
import { adapterKinds, createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, testUsers } from '@corridor/platform/testing/identity';
import type { GeofenceService } from '../src/app';
import type { LonLat } from '../src/fences/fence';
import { geofencesRepository } from '../src/geofences/repository';
import { eventually } from '@corridor/platform/testing/eventually';
import { MarkerFence, northOf, positionAt, startService } from './harness';

const kinds = await adapterKinds();
const T0 = Date.parse('2026-03-02T04:00:00Z');
const at = (seconds: number): Date => new Date(T0 + seconds * 1000);

/** Seed fences (@corridor/geodata): 800 m circles, enter after 120 s inside, exit beyond 100 m outside. */
const MALABA: LonLat = [34.276, 0.637];
const BUSIA: LonLat = [34.09, 0.463];
const NAMANGA: LonLat = [36.788, -2.545];

describe.each(kinds)('geofence evaluator on positions.v1 (%s adapters)', (kind) => {
  let adapters: TestAdapters;
  let svc: GeofenceService;
  let observer: Subscription;
  let marker: MarkerFence;
  const events: EventMessage[] = [];
  // device ids differ per adapter kind: both kinds share one chDB in this process
  const device = (n: number): number => (kind === 'embedded' ? 5000 : 6000) + n;

  beforeAll(async () => {
    adapters = await createTestAdapters(kind);
    const [started, sub] = await Promise.all([
      startService(adapters),
      adapters.bus.subscribe({
        groupId: 'evaluator-test-observer',
        topics: [Topics.events],
        fromBeginning: true,
        handler: async (msgs) => {
          for (const m of msgs) events.push(EventMessage.parse(JSON.parse(m.value)));
        },
      }),
    ]);
    svc = started;
    observer = sub;
    marker = await MarkerFence.draw((body) => api('POST', '/api/geofences', body), `Marker ${kind}`);
  });

  afterAll(async () => {
    // each Kafka consumer takes up to its fetch wait (5 s) to stop: stop them together
    await Promise.all([svc?.close(), observer?.stop()]);
    await adapters?.close();
  });

  const publish = (positions: PositionMessage[]) =>
    adapters.bus.publish(
      Topics.positions,
      positions.map((p) => ({ key: String(p.deviceId), value: p })),
    );
  const eventsOf = (deviceId: number): EventMessage[] => events.filter((e) => e.deviceId === deviceId);
  const until = (deviceId: number, n: number, what: string) =>
    eventually(what, () => (eventsOf(deviceId).length >= n ? eventsOf(deviceId) : undefined));
  /** the device's events once a marker fix after `time`'s fixes has been evaluated, so "exactly" means exactly */
  const settled = (deviceId: number, time: Date) => marker.eventsBefore(deviceId, time, { publish, eventsOf });
  const api = async <T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) => {
    const res = await svc.app.inject({ method, url, payload: payload as never, headers: await asUser(testUsers.admin) });
    expect(res.statusCode, res.body).toBeLessThan(300);
    return (res.body ? res.json() : undefined) as T;
  };
  const fenceId = async (prefix: string): Promise<string> =>
    String((await api<Geofence[]>('GET', `/api/geofences?keyword=${encodeURIComponent(prefix)}`))[0]!.id);

  it('a truck through Malaba border post: one enter, one exit, the right dwell, stored in ClickHouse and PostgreSQL', async () => {
    const d = device(1);
    const malaba = await fenceId('Malaba');
    await publish([
      positionAt(d, at(0), northOf(MALABA, -3000)),
      positionAt(d, at(60), northOf(MALABA, -1500)),
      positionAt(d, at(120), northOf(MALABA, -700)), // first inside fix
      positionAt(d, at(180), northOf(MALABA, -300)), // 60 s inside: dwell not met yet
      ...Array.from({ length: 12 }, (_, i) => positionAt(d, at(300 + i * 600), northOf(MALABA, (i % 3) * 40))), // queueing
    ]);
    const [enter] = await until(d, 1, 'the enter');
    expect(enter).toMatchObject({
      type: 'geofenceEnter',
      geofenceId: malaba,
      eventTime: at(120).toISOString(),
      positionId: positionId(d, at(300)),
    });
    const inside = await api<{ items: { deviceId: number; enteredAt: string }[] }>('GET', `/api/geofences/${malaba}/inside`);
    expect(inside.items).toContainEqual(expect.objectContaining({ deviceId: d, enteredAt: at(120).toISOString() }));

    await publish([
      positionAt(d, at(7500), northOf(MALABA, 700)),
      positionAt(d, at(7530), northOf(MALABA, 850)), // outside, within the 100 m margin: still inside
      positionAt(d, at(7560), northOf(MALABA, 950)), // beyond the margin: the exit
      positionAt(d, at(7620), northOf(MALABA, 3000)),
    ]);
    const [, exit] = await until(d, 2, 'the exit');
    expect((await settled(d, at(9000))).map((e) => e.type)).toEqual(['geofenceEnter', 'geofenceExit']);
    expect(exit).toMatchObject({
      type: 'geofenceExit',
      geofenceId: malaba,
      eventTime: at(7560).toISOString(),
      attributes: { dwellSeconds: 7440, geofenceKind: 'border_post', country: 'KE' },
    });
    expect(
      (await api<{ items: { deviceId: number }[] }>('GET', `/api/geofences/${malaba}/inside`)).items.map((i) => i.deviceId),
    ).not.toContain(d);

    const pg = await adapters.db.rows<{ type: string; dwell_seconds: number | null }>(
      sql`select type, dwell_seconds from geofence.geofence_events where device_id = ${d} and geofence_id = ${Number(malaba)} order by event_time`,
    );
    expect(pg).toEqual([
      { type: 'geofenceEnter', dwell_seconds: null },
      { type: 'geofenceExit', dwell_seconds: 7440 },
    ]);
    const ch = await adapters.analytics.client.query({
      query: `SELECT type, JSONExtractFloat(attributes, 'dwellSeconds') AS dwell FROM ${adapters.analytics.database}.events FINAL WHERE device_id = {d:UInt64} AND geofence_id = {malaba:String} ORDER BY event_time`,
      query_params: { d, malaba },
      format: 'JSONEachRow',
    });
    expect(await ch.json()).toEqual([
      { type: 'geofenceEnter', dwell: 0 },
      { type: 'geofenceExit', dwell: 7440 },
    ]);
  });

  it('GPS jitter at the edge of Busia border post does not flap', async () => {
    const d = device(2);
    const wobble = Array.from({ length: 30 }, (_, i) => positionAt(d, at(600 + i * 20), northOf(BUSIA, i % 2 ? 860 : 780)));
    await publish([
      positionAt(d, at(0), northOf(BUSIA, 2000)),
      positionAt(d, at(60), northOf(BUSIA, 200)),
      positionAt(d, at(300), northOf(BUSIA, 100)),
      ...wobble,
      positionAt(d, at(1500), northOf(BUSIA, 1500)),
    ]);
    await until(d, 2, 'enter and exit');
    expect((await settled(d, at(3000))).map((e) => [e.type, e.eventTime, e.attributes.dwellSeconds])).toEqual([
      ['geofenceEnter', at(60).toISOString(), undefined],
      ['geofenceExit', at(1500).toISOString(), 1440],
    ]);
  });

  it('a restart mid-visit does not emit a duplicate enter', async () => {
    const d = device(3);
    await publish([
      positionAt(d, at(0), northOf(NAMANGA, 5000)),
      positionAt(d, at(60), NAMANGA),
      positionAt(d, at(300), northOf(NAMANGA, 50)),
    ]);
    await until(d, 1, 'the enter');
    await svc.close();
    svc = await startService(adapters); // same bus, database and cache: a new process would find the same
    await publish([
      positionAt(d, at(900), northOf(NAMANGA, 20)),
      positionAt(d, at(1500), northOf(NAMANGA, -20)),
      positionAt(d, at(2100), northOf(NAMANGA, 5000)),
    ]);
    await until(d, 2, 'the exit after the restart');
    expect((await settled(d, at(3000))).map((e) => [e.type, e.eventTime, e.attributes.dwellSeconds])).toEqual([
      ['geofenceEnter', at(60).toISOString(), undefined],
      ['geofenceExit', at(2100).toISOString(), 2040],
    ]);
  });

  it('a fence created, moved and deleted through the API takes effect for the next position without a restart', async () => {
    const d = device(4);
    const centre: LonLat = [37.2, -1.9];
    const body: GeofenceInputBody = { name: `Hot yard ${kind}`, area: `CIRCLE (${centre[1]} ${centre[0]}, 400)`, kind: 'inland_depot' }; // an association's depot: every truck
    const fence = await api<Geofence>('POST', '/api/geofences', body);
    await publish([positionAt(d, at(0), northOf(centre, 2000)), positionAt(d, at(60), centre)]);
    const [enter] = await until(d, 1, 'the enter into the new fence');
    expect(enter).toMatchObject({
      type: 'geofenceEnter',
      geofenceId: String(fence.id),
      eventTime: at(60).toISOString(),
      attributes: { geofenceName: body.name },
    });

    await api('PUT', `/api/geofences/${fence.id}`, { ...body, area: `CIRCLE (${centre[1] + 0.1} ${centre[0]}, 400)` });
    await publish([positionAt(d, at(120), centre)]);
    const [, exit] = await until(d, 2, 'the exit once the fence moved away');
    expect(exit).toMatchObject({ type: 'geofenceExit', eventTime: at(120).toISOString(), attributes: { dwellSeconds: 60 } });

    const moved: LonLat = [centre[0], centre[1] + 0.1];
    await publish([positionAt(d, at(180), moved)]);
    await until(d, 3, 'the enter into the moved fence');
    await api('DELETE', `/api/geofences/${fence.id}`);
    await publish([positionAt(d, at(240), moved), positionAt(d, at(300), northOf(moved, 3000))]);
    // deleting a fence is not a movement of the truck: no exit
    expect((await settled(d, at(400))).map((e) => e.type)).toEqual(['geofenceEnter', 'geofenceExit', 'geofenceEnter']);
  });

  it('applies a change announced on geofences.v1 by another instance', async () => {
    const d = device(5);
    const centre: LonLat = [37.5, -2.2];
    // another instance committed this fence and announced it: only the topic tells this one
    const [row] = await geofencesRepository(adapters.db.orm).insertSeeds([
      { name: `Remote yard ${kind}`, area: `CIRCLE (${centre[1]} ${centre[0]}, 300)`, attributes: {}, kind: 'inland_depot' },
    ]);
    expect(svc.catalog.get(String(row!.id))).toBeUndefined();
    await adapters.bus.publish(Topics.geofences, [
      { key: String(row!.id), value: { id: row!.id, deleted: false, ...row, links: { deviceIds: [], groupIds: [] } } },
    ]);
    await eventually('the catalog to load the announced fence', () => svc.catalog.get(String(row!.id)));
    await publish([positionAt(d, at(0), centre)]);
    const [enter] = await until(d, 1, 'the enter');
    expect(enter).toMatchObject({ type: 'geofenceEnter', geofenceId: String(row!.id) });
  });

  it("applies a fence linked to a group only to that group's devices", async () => {
    const [member, stranger] = [device(6), device(7)];
    const centre: LonLat = [37.8, -2.5];
    const fence = await api<Geofence>('POST', '/api/geofences', {
      name: `Group yard ${kind}`,
      area: `CIRCLE (${centre[1]} ${centre[0]}, 300)`,
    });
    await publishGroups(adapters.cache, [{ id: 77, companyId: 101 }]);
    await api('POST', `/api/geofences/${fence.id}/links`, { groupId: 77 });
    const entry: DeviceRegistryMessage = {
      id: member,
      uniqueId: `imei-${member}`,
      name: 'member',
      disabled: false,
      companyId: 101,
      groupId: 77,
      status: 'online',
      deleted: false,
    };
    await adapters.cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
    await publish([positionAt(member, at(0), centre), positionAt(stranger, at(0), centre)]);
    const [enter] = await until(member, 1, "the member's enter");
    expect(enter).toMatchObject({ geofenceId: String(fence.id), attributes: { companyId: 101 } });
    expect(await settled(stranger, at(60))).toEqual([]);
  });

  it('a truck with event.geofence.segmentCrossing jumping across a fence between two fixes: one geofenceCrossed, stored and published', async () => {
    const d = device(8);
    const fence = await api<Geofence>('POST', '/api/geofences', {
      name: `Weighbridge ${kind}`,
      area: 'POLYGON ((-2.81 38.01, -2.79 38.01, -2.79 38.02, -2.81 38.02))',
      kind: 'weighbridge',
    });
    const entry: DeviceRegistryMessage = {
      id: d,
      uniqueId: `imei-${d}`,
      name: 'jumper',
      disabled: false,
      companyId: null,
      groupId: null,
      status: 'online',
      deleted: false,
      attributes: { 'event.geofence.segmentCrossing': true },
    };
    await adapters.cache.set(cacheKeys.deviceByUniqueId(entry.uniqueId), JSON.stringify(entry));
    // a fix west of the fence, the next east of it, nothing between
    await publish([positionAt(d, at(0), [38.0, -2.8]), positionAt(d, at(60), [38.03, -2.8])]);
    const [crossed] = await until(d, 1, 'the crossing');
    expect(await settled(d, at(120))).toHaveLength(1);
    expect(crossed).toMatchObject({
      type: 'geofenceCrossed',
      geofenceId: String(fence.id),
      eventTime: at(60).toISOString(),
      positionId: positionId(d, at(60)),
      attributes: { geofenceName: `Weighbridge ${kind}` },
    });
    const pg = await adapters.db.rows<{ type: string }>(
      sql`select type from geofence.geofence_events where device_id = ${d} and geofence_id = ${fence.id}`,
    );
    expect(pg).toEqual([{ type: 'geofenceCrossed' }]);
    const ch = await adapters.analytics.client.query({
      query: `SELECT type, geofence_id FROM ${adapters.analytics.database}.events FINAL WHERE device_id = {d:UInt64} AND geofence_id = {fence:String}`,
      query_params: { d, fence: String(fence.id) },
      format: 'JSONEachRow',
    });
    expect(await ch.json()).toEqual([{ type: 'geofenceCrossed', geofence_id: String(fence.id) }]);
  });
});
