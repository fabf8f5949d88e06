import { Topics, type PositionMessage } from '@corridor/contracts';
import { cacheKeys, MemoryBus, parseConfig } from '@corridor/platform';
import { eventually } from '@corridor/platform/testing/eventually';
import { asUser, TEST_IDENTITY_SECRET, userWith } from '@corridor/platform/testing/identity';
import { createTestAdapters, type TestAdapters } from '@corridor/platform/testing/test-adapters';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build, type IngestService } from '../src/app';
import { IngestConfig } from '../src/config';
import { registryEntry } from './test-device';

/**
 * Issue 11: a fix dated 23 h ahead was stored and stayed the latest position while current fixes
 * arrived. Here through the JSON API (POST /api/positions) of ingest built with its configuration
 * as main.ts builds it (FIX_MAX_FUTURE_SECONDS from the environment, default 600): the frame
 * handler's test (src/frames/frame-handler.test.ts) covers device ports with the intake's own default.
 * Embedded adapters: what is checked is the intake's answer and what it publishes.
 */
const DEVICE = 41;
const UNIQUE_ID = '359632101010101';
const AHEAD_DEVICE = 42;
const AHEAD_UNIQUE_ID = '359632101010102';

let adapters: TestAdapters;
let bus: MemoryBus;
const services: IngestService[] = [];

async function ingestWith(env: Record<string, string>): Promise<IngestService> {
  const svc = await build({ ...adapters, identitySecret: TEST_IDENTITY_SECRET, settings: parseConfig(IngestConfig, env) });
  services.push(svc);
  svc.registry.apply(registryEntry(DEVICE, UNIQUE_ID));
  return svc;
}

const push = async (svc: IngestService, fixTime: Date) =>
  svc.app.inject({
    method: 'POST',
    url: '/api/positions',
    headers: await asUser(userWith(['admin'])),
    payload: {
      positions: [{ uniqueId: UNIQUE_ID, fixTime: fixTime.toISOString(), latitude: -1.29, longitude: 36.82, speed: 0, course: 0 }],
    },
  });

beforeAll(async () => {
  adapters = await createTestAdapters('embedded');
  bus = adapters.bus as MemoryBus;
});

afterAll(async () => {
  for (const svc of services) await svc.close();
  await adapters?.close();
});

describe('fixes dated in the future (POST /api/positions)', () => {
  it('refuses a fix 23 h ahead with the default configuration (400 future_time, nothing published) and keeps one a minute ahead', async () => {
    const svc = await ingestWith({});
    const before = bus.size(Topics.positions);
    const ahead = await push(svc, new Date(Date.now() + 23 * 3600_000));
    expect(ahead.statusCode, ahead.body).toBe(400);
    expect(ahead.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', details: { rejected: [{ uniqueId: UNIQUE_ID, reason: 'future_time' }] } },
    });
    expect(bus.size(Topics.positions)).toBe(before);
    const soon = await push(svc, new Date(Date.now() + 60_000));
    expect(soon.statusCode, soon.body).toBe(200);
    expect(bus.size(Topics.positions)).toBe(before + 1);
  });

  it("keeps a fix 9 min ahead (the sweep's) marked clockAhead, but never as the latest position, nor as the track's last fix (issue 23)", async () => {
    const svc = await ingestWith({});
    svc.registry.apply(registryEntry(AHEAD_DEVICE, AHEAD_UNIQUE_ID)); // a device of its own: the tests above moved DEVICE's track a minute ahead
    await svc.start();
    const seen: PositionMessage[] = [];
    const sub = await bus.subscribe({
      groupId: 'future-fixes-test',
      topics: [Topics.positions],
      fromBeginning: true,
      handler: async (ms) => void seen.push(...ms.map((m) => JSON.parse(m.value) as PositionMessage)),
    });
    const at = async (ms: number, latitude: number) =>
      svc.app.inject({
        method: 'POST',
        url: '/api/positions',
        headers: await asUser(userWith(['admin'])),
        payload: {
          positions: [
            {
              uniqueId: AHEAD_UNIQUE_ID,
              fixTime: new Date(Math.floor((Date.now() + ms) / 1000) * 1000).toISOString(),
              latitude,
              longitude: 36.82,
              speed: 10,
              course: 0,
            },
          ],
        },
      });
    const sent = (res: { body: string }) => (JSON.parse(res.body) as { ids: number[] }).ids[0]!;
    const first = await at(-120_000, -1.29);
    expect(first.statusCode, first.body).toBe(200);
    const ahead = await at(9 * 60_000, -1.5);
    expect(ahead.statusCode, ahead.body).toBe(200);
    const current = await at(-1000, -1.3);
    expect(current.statusCode, current.body).toBe(200);
    const published = await eventually('the three fixes on positions.v1', () => {
      const mine = seen.filter((p) => [sent(first), sent(ahead), sent(current)].includes(p.id));
      return mine.length === 3 && mine;
    });
    await sub.stop();
    const byId = new Map(published.map((p) => [p.id, p]));
    expect(byId.get(sent(ahead))!.attributes.clockAhead).toBeGreaterThanOrEqual(530);
    expect(byId.get(sent(current))!.attributes.clockAhead).toBeUndefined();
    // the track went on from the first fix: the current one is about 1.1 km from it (not 0, as after a fix it thought later)
    expect(byId.get(sent(current))!.attributes.distance).toBeGreaterThan(1000);
    // the latest position is the current fix, once the position store has handled it
    const latest = await eventually('the latest position', async () => {
      const raw = await adapters.cache.get(cacheKeys.latestPosition(AHEAD_DEVICE));
      const p = raw ? (JSON.parse(raw) as PositionMessage) : undefined;
      return p?.id === sent(current) && p;
    });
    expect(latest.latitude).toBe(-1.3);
  });

  it('takes FIX_MAX_FUTURE_SECONDS from the configuration: a device whose clock runs a day ahead is kept when the operator allows it', async () => {
    const svc = await ingestWith({ FIX_MAX_FUTURE_SECONDS: '86400' });
    const res = await push(svc, new Date(Date.now() + 23 * 3600_000));
    expect(res.statusCode, res.body).toBe(200);
  });
});
