import { describe, expect, it } from 'vitest';
import { createLogger, type Analytics } from '@corridor/platform';
import { ObservatoryRollup } from './rollup';
import type { ObservatoryFact } from './facts';

/**
 * When the daily indicators are recomputed, and for which days. The store here records the
 * statements it is sent (and fails when told to): what they compute is tested against chDB in
 * packages/platform/src/clickhouse/observatory-rollup.test.ts and through the service in
 * test/observatory.test.ts.
 */
function recordingStore() {
  const calls: string[][] = [];
  let failures = 0;
  const analytics = {
    database: 'db',
    client: {
      command: async (o: { query: string; query_params: { days: string[] } }) => {
        if (failures > 0) {
          failures--;
          throw new Error('store unavailable');
        }
        if (o.query.includes('obs_visits_daily')) calls.push(o.query_params.days);
      },
    },
  } as unknown as Analytics;
  return { analytics, calls, failNext: (n: number) => (failures = n) };
}

const visit = (exitedAt: string): ObservatoryFact => ({
  kind: 'visit',
  deviceId: 1,
  placeId: '40',
  placeName: 'Malaba OSBP',
  placeKind: 'border_post',
  corridor: 'northern',
  direction: 1,
  enteredAt: Date.parse(exitedAt) - 3_600_000,
  exitedAt: Date.parse(exitedAt),
});
const leg = (arrivedAt: string): ObservatoryFact => ({
  kind: 'leg',
  deviceId: 1,
  corridor: 'northern',
  legKind: 'segment',
  from: { id: '30', name: 'Webuye', along: 0 },
  to: { id: '40', name: 'Malaba', along: 1 },
  direction: 1,
  departedAt: Date.parse(arrivedAt) - 60_000,
  arrivedAt: Date.parse(arrivedAt),
  excluded: '',
});
const logger = createLogger('test', 'silent');

describe('observatory rollup', () => {
  it('recomputes the UTC days the facts count on, once each, however many facts touched them', async () => {
    const store = recordingStore();
    const rollup = new ObservatoryRollup({ analytics: store.analytics, logger, intervalMs: 60_000 });
    rollup.mark([visit('2026-02-03T23:59:00Z'), visit('2026-02-03T01:00:00Z'), leg('2026-02-04T00:01:00Z')]);
    rollup.mark([
      { kind: 'distance', deviceId: 1, day: '2026-02-01', corridor: 'northern', direction: 1, metres: 5, version: 1 } as ObservatoryFact,
    ]);
    await rollup.flush();
    expect(store.calls.flat().sort()).toEqual(['2026-02-01', '2026-02-03', '2026-02-04']);
    await rollup.close();
  });

  it('keeps the days of a failed recomputation for the next one', async () => {
    const store = recordingStore();
    const rollup = new ObservatoryRollup({ analytics: store.analytics, logger, intervalMs: 60_000 });
    store.failNext(1);
    rollup.mark([visit('2026-02-03T12:00:00Z')]);
    await rollup.flush();
    expect(store.calls).toEqual([]);
    await rollup.flush();
    expect(store.calls).toEqual([['2026-02-03']]);
    await rollup.close();
  });

  it('recomputes at most once per interval: facts marked meanwhile wait for the next, or for flush', async () => {
    const store = recordingStore();
    const rollup = new ObservatoryRollup({ analytics: store.analytics, logger, intervalMs: 60_000 });
    rollup.mark([visit('2026-02-03T12:00:00Z')]);
    await rollup.flush();
    rollup.mark([visit('2026-02-05T12:00:00Z')]);
    // the last recomputation was just now and the interval is a minute: the 5th waits
    expect(store.calls).toEqual([['2026-02-03']]);
    await rollup.flush();
    expect(store.calls).toEqual([['2026-02-03'], ['2026-02-05']]);
    await rollup.close();
  });
});
