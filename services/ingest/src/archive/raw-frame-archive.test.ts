import { createLogger, type Analytics } from '@corridor/platform';
import { describe, expect, it } from 'vitest';
import { RawFrameArchive, type RawFrameRecord } from './raw-frame-archive';

/** A ClickHouse stand-in that records inserts and fails while `down`. */
function fakeAnalytics() {
  const state = { down: false, inserted: [] as Record<string, unknown>[], commands: [] as string[] };
  const client = {
    command: async ({ query }: { query: string }) => void state.commands.push(query),
    insert: async ({ values }: { values: Record<string, unknown>[] }) => {
      if (state.down) throw new Error('ClickHouse unreachable');
      state.inserted.push(...values);
    },
  };
  return {
    state,
    analytics: {
      kind: 'clickhouse',
      database: 'corridor',
      client,
      ping: async () => undefined,
      close: async () => undefined,
    } as unknown as Analytics,
  };
}

const record = (i: number): RawFrameRecord => ({
  id: `id-${i}`,
  receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i)),
  protocol: 'gt06',
  transport: 'tcp',
  deviceId: 5,
  uniqueId: '359710049095095',
  remote: '10.1.2.3:5000',
  frame: Buffer.from([0x78, 0x78, i]),
  outcome: 'position',
  positions: 1,
  crcValid: true,
});
const logger = createLogger('test', 'silent');

describe('RawFrameArchive', () => {
  it("changes no table: it only inserts (the table and its TTL are the migrate step's)", async () => {
    const { state, analytics } = fakeAnalytics();
    const archive = new RawFrameArchive(analytics, { logger, flushIntervalMs: 60_000 });
    archive.start();
    archive.record(record(1));
    await archive.close();
    expect(state.inserted.map((r) => r.id)).toEqual(['id-1']);
    expect(state.commands).toEqual([]);
  });

  it('writes rows with the frame as hex, keeps them while ClickHouse is down and writes them once it is back', async () => {
    const { state, analytics } = fakeAnalytics();
    const archive = new RawFrameArchive(analytics, { logger, flushIntervalMs: 60_000 });
    state.down = true;
    archive.record(record(1));
    archive.record(record(2));
    await archive.flush();
    expect(state.inserted).toHaveLength(0);
    state.down = false;
    await archive.flush();
    expect(state.inserted.map((r) => r.id)).toEqual(['id-1', 'id-2']);
    expect(state.inserted[0]).toMatchObject({
      frame_hex: '787801',
      received_at: '2026-01-01 00:00:01.000',
      device_id: 5,
      outcome: 'position',
      crc_valid: true,
    });
  });

  it('drops the oldest rows beyond its bound while ClickHouse stays down', async () => {
    const { state, analytics } = fakeAnalytics();
    const archive = new RawFrameArchive(analytics, { logger, maxPendingRows: 3, flushIntervalMs: 60_000 });
    state.down = true;
    for (let i = 1; i <= 5; i++) archive.record(record(i));
    state.down = false;
    await archive.close();
    expect(state.inserted.map((r) => r.id)).toEqual(['id-3', 'id-4', 'id-5']);
  });
});
