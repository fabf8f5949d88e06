import { afterAll, describe, expect, it } from 'vitest';
import { EventMessage } from '@corridor/contracts';
import type { Analytics } from './adapters/analytics';
import { eventNumericId, toApiEvent } from './api-event';
import { eventIdSql, insertEvents } from './clickhouse/events';
import { migrateAnalytics } from './clickhouse/migrate';
import { analyticsVariants, uniqueName } from '../test/adapter-variants';

const variants = await analyticsVariants(uniqueName('eventids'));

describe('numeric event ids', () => {
  it('are stable, below 2^53 and differ between keys', () => {
    const keys = Array.from({ length: 2000 }, (_, i) => `${i % 37}-alarm-${1_700_000_000_000 + i}-sos`);
    const ids = keys.map(eventNumericId);
    expect(new Set(ids).size).toBe(keys.length);
    for (const id of ids) expect(Number.isSafeInteger(id) && id > 0).toBe(true);
    expect(eventNumericId(keys[5]!)).toBe(ids[5]);
  });

  it("answer an event in Traccar's shape: 0 for absent ids, the geofence as a number, the message in attributes", () => {
    const e = EventMessage.parse({
      id: 'k1',
      type: 'geofenceEnter',
      eventTime: '2026-01-01T00:00:00.000Z',
      deviceId: 7,
      geofenceId: '12',
      attributes: { maintenanceId: 4 },
    });
    expect(toApiEvent(e, 'KDA 001 entered Yard')).toEqual({
      id: eventNumericId('k1'),
      type: 'geofenceEnter',
      eventTime: '2026-01-01T00:00:00.000Z',
      deviceId: 7,
      positionId: 0,
      geofenceId: 12,
      maintenanceId: 4,
      journeyId: null,
      latitude: null,
      longitude: null,
      attributes: { maintenanceId: 4, message: 'KDA 001 entered Yard' },
    });
    expect(toApiEvent({ ...e, geofenceId: null, attributes: {} })).toMatchObject({ geofenceId: 0, maintenanceId: 0, attributes: {} });
  });
});

describe.each(variants)('eventIdSql: $name', ({ create }) => {
  let ch: Analytics;
  afterAll(async () => {
    await ch?.close();
  });

  it('computes in ClickHouse the id eventNumericId computes', async () => {
    ch = await create();
    await migrateAnalytics(ch);
    const keys = ['30-alarm-1767225600000-sos', 'x', '7-geofenceEnter-1767225600000-12', 'é-ünïcode-✓'];
    await insertEvents(ch)(
      keys.map((id, i) => EventMessage.parse({ id, type: 'alarm', eventTime: '2026-01-01T00:00:00.000Z', deviceId: i + 1 })),
    );
    const rs = await ch.client.query({
      query: `SELECT id, toString(${eventIdSql()}) AS n FROM ${ch.database}.events ORDER BY device_id`,
      format: 'JSONEachRow',
    });
    const rows = await rs.json<{ id: string; n: string }>();
    expect(rows.map((r) => [r.id, Number(r.n)])).toEqual(keys.map((k) => [k, eventNumericId(k)]));
  });
});
