import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { positionId, type PositionMessage } from '@corridor/contracts';
import type { Analytics } from '../adapters/analytics';
import { createClickHouseAnalytics } from '../adapters/clickhouse';
import { countPositions, insertPositions, queryPositionHistory } from '../clickhouse/positions';
import { migrateAnalytics } from '../clickhouse/migrate';
import { startChdbHttp, type ChdbHttpServer } from './chdb-http';

/** The platform's real ClickHouse adapter (HTTP) against chDB behind the HTTP front. */
let host: ChdbHttpServer;
let ch: Analytics;
beforeAll(async () => {
  host = await startChdbHttp({ path: ':memory:' });
  ch = await createClickHouseAnalytics({ url: host.url, username: 'default', password: '', database: 'http_front', createDatabase: true });
});
afterAll(async () => {
  await ch?.close();
  await host?.close();
});

const at = new Date('2026-06-01T06:00:00Z');
const position = (deviceId: number, seconds: number, uniqueId = `dev-${deviceId}`): PositionMessage => {
  const time = new Date(at.getTime() + seconds * 1000);
  return {
    id: positionId(deviceId, time),
    deviceId,
    uniqueId,
    protocol: 'gt06',
    fixTime: time.toISOString(),
    deviceTime: time.toISOString(),
    serverTime: new Date().toISOString(),
    valid: true,
    latitude: -1.3,
    longitude: 36.8,
    speed: 20,
    course: 90,
    altitude: null,
    accuracy: null,
    satellites: 9,
    hdop: null,
    ignition: true,
    odometer: null,
    power: null,
    battery: null,
    alarm: null,
    crcValid: true,
    rawFrameId: null,
    attributes: { k: 'v' },
  };
};

describe('the ClickHouse HTTP interface served by chDB', () => {
  it('answers /ping', async () => {
    expect(await (await fetch(`${host.url}/ping`)).text()).toBe('Ok.\n');
    expect((await ch.client.ping()).success).toBe(true);
  });

  it('migrates, inserts rows in the URL+body form, reads them with parameters, and collapses duplicates with FINAL', async () => {
    await migrateAnalytics(ch);
    const rows = [position(7, 0, "it's a \\ tab\there"), position(7, 30), position(8, 0)];
    await insertPositions(ch)([...rows, rows[1]!]);
    expect(await countPositions(ch)([7, 8])).toBe(3);
    const history = await queryPositionHistory(ch)({ deviceIds: [7], from: at, to: new Date(at.getTime() + 60_000), limit: 10 });
    expect(history.map((p) => p.fixTime)).toEqual([rows[0]!.fixTime, rows[1]!.fixTime]);
    expect(history[0]?.uniqueId).toBe("it's a \\ tab\there");
  });

  it('binds string, number and array parameters as ClickHouse does', async () => {
    const rs = await ch.client.query({
      query: "SELECT {s:String} AS s, {n:UInt32} + 1 AS n, {a:Array(String)} AS a, {d:DateTime64(3, 'UTC')} AS d",
      query_params: { s: "quote ' backslash \\ newline \n", n: 41, a: ['x', 'y z'], d: '2026-06-01 06:00:00.000' },
      format: 'JSONEachRow',
    });
    expect(await rs.json()).toEqual([{ s: "quote ' backslash \\ newline \n", n: 42, a: ['x', 'y z'], d: '2026-06-01 06:00:00.000' }]);
  });

  it("answers a failed statement with ClickHouse's error, parsed by the client into its code and type", async () => {
    await expect(ch.client.query({ query: 'SELEC 1', format: 'JSONEachRow' })).rejects.toMatchObject({ code: '62', type: 'SYNTAX_ERROR' });
    await expect(ch.client.command({ query: 'SELECT * FROM http_front.no_such_table' })).rejects.toMatchObject({ type: 'UNKNOWN_TABLE' });
  });
});
