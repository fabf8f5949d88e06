import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputedAttribute, Device, PositionMessage } from '@corridor/contracts';
import { build as buildIngest, type IngestService } from '@corridor/ingest';
import { build as buildOpsApi, type OpsApiService } from '@corridor/ops-api';
import { cacheKeys, queryPositionHistory } from '@corridor/platform';
import { createTestAdapters, primaryKind, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { asUser, TEST_IDENTITY_SECRET, testUsers } from '@corridor/platform/testing/identity';
import { eventually } from './test-stack';

/**
 * Computed attributes end to end: defined through ops-api's API, linked to the device or its group
 * (Traccar's permissions, /links/objects), published to the cache, applied by ingest to an OsmAnd
 * position before positions.v1, and found in the stored position. An attribute linked to no device
 * of the position applies to none, as in Traccar.
 */
const kind = await primaryKind();

describe(`computed attributes on ingested positions (${kind} adapters)`, () => {
  let adapters: TestAdapters;
  let ops: OpsApiService;
  let ingest: IngestService;
  let device: Device;
  let groupId: number;
  let admin: Record<string, string>;
  const t0 = Date.UTC(2026, 10, 21, 8, 0, 0);

  beforeAll(async () => {
    adapters = await createTestAdapters(kind);
    const common = { ...adapters, logger: adapters.logger, identitySecret: TEST_IDENTITY_SECRET };
    ops = await buildOpsApi(common);
    // re-read the definitions on every intake call so each change shows on the next position
    ingest = await buildIngest({ ...common, tuning: { computedAttributesReloadMs: 0 } });
    await Promise.all([ops.start(), ingest.start()]);
    admin = await asUser(testUsers.admin);
    const group = await ops.app.inject({
      method: 'POST',
      url: '/api/groups',
      headers: admin,
      payload: { name: 'Computed fleet', companyId: 101 },
    });
    expect(group.statusCode, group.body).toBe(200);
    groupId = group.json<{ id: number }>().id;
    const res = await ops.app.inject({
      method: 'POST',
      url: '/api/devices',
      headers: admin,
      payload: { name: 'Computed truck', uniqueId: '860000000000777', companyId: 101, groupId },
    });
    expect(res.statusCode, res.body).toBe(200);
    device = res.json<Device>();
  }, 120000);

  afterAll(async () => {
    await ingest?.close();
    await ops?.close();
    await adapters?.close();
  });

  /** Defines an attribute and links it to the device, to the device's group, or to nothing. */
  const define = async (body: Record<string, unknown>, to: 'device' | 'group' | 'none' = 'device'): Promise<ComputedAttribute> => {
    const res = await ops.app.inject({
      method: 'POST',
      url: '/api/attributes/computed',
      headers: admin,
      payload: { description: String(body.attribute), ...body },
    });
    expect(res.statusCode, res.body).toBe(200);
    const attribute = res.json<ComputedAttribute>();
    if (to !== 'none') {
      const link = to === 'device' ? { deviceId: device.id, attributeId: attribute.id } : { groupId, attributeId: attribute.id };
      const linked = await ops.app.inject({ method: 'POST', url: '/api/links/objects', headers: admin, payload: [link] });
      expect(linked.statusCode, linked.body).toBe(204);
    }
    return attribute;
  };
  const sendAndRead = async (i: number): Promise<PositionMessage> => {
    const ts = t0 + i * 60000;
    const res = await ingest.osmand.inject({
      method: 'GET',
      url: `/?id=${device.uniqueId}&lat=-1.29&lon=36.82&timestamp=${ts / 1000}&speed=50&bearing=90&fuel=40`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const at = new Date(ts);
    const [p] = await eventually('the stored position', async () => {
      const r = await queryPositionHistory(adapters.analytics)({ deviceIds: [device.id], from: at, to: at, limit: 1 });
      return r.length === 1 && r;
    });
    return p!;
  };

  it('stores the computed values of the linked attributes, follows changes and deletions, and scopes by company', async () => {
    // ops-api publishes the (empty) definition list at start
    expect(await adapters.cache.get(cacheKeys.computedAttributes())).toBe('[]');
    const kmh = await define({ attribute: 'speedKmh', expression: 'speed * 1.852', type: 'Number', priority: 10 });
    await define({ attribute: 'speeding', expression: 'speedKmh > 80 ? "yes" : "no"', type: 'String', priority: 5, companyId: 101 });
    await define({ attribute: 'otherCompany', expression: '1', type: 'Number', companyId: 202 });
    await define({ attribute: 'fuelHalf', expression: 'fuel / 2', type: 'Number' }, 'group');
    await define({ attribute: 'unlinked', expression: '1', type: 'Number' }, 'none');

    const first = await sendAndRead(0);
    expect(first.attributes.speedKmh).toBeCloseTo(92.6, 3);
    expect(first.attributes).toMatchObject({ speeding: 'yes', fuelHalf: 20 });
    expect(first.attributes).not.toHaveProperty('otherCompany');
    expect(first.attributes).not.toHaveProperty('unlinked');

    const upd = await ops.app.inject({
      method: 'PUT',
      url: `/api/attributes/computed/${kmh.id}`,
      headers: admin,
      payload: { description: 'speed in m/s', attribute: 'speedKmh', expression: 'speed * 0.514444', type: 'Number', priority: 10 },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    const second = await sendAndRead(1);
    expect(second.attributes.speedKmh).toBeCloseTo(25.72, 2);
    expect(second.attributes.speeding).toBe('no');

    const del = await ops.app.inject({ method: 'DELETE', url: `/api/attributes/computed/${kmh.id}`, headers: admin });
    expect(del.statusCode, del.body).toBeLessThan(300);
    const third = await sendAndRead(2);
    expect(third.attributes).not.toHaveProperty('speedKmh');
    expect(third.attributes.fuelHalf).toBe(20);
  }, 60000);
});
