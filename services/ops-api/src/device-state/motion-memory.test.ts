import { describe, expect, it } from 'vitest';
import { PositionMessage, type EventMessage } from '@corridor/contracts';
import { randomTrack } from '../reports/random-track';
import { defaultReportSettings } from '../reports/settings';
import { eventConfigOf } from './event-config';
import { MotionMemory, type StoredFixes } from './motion-memory';
import { rowOf } from './motion-state';
import { positionEvents, type EventConfig, type PositionEventState } from './position-events';

/**
 * The motion detector held in memory (motion-memory.ts) gives the same deviceMoving / deviceStopped
 * as the state that carried its window through the cache, and a restart (a new instance: nothing
 * held, the window read back from the stored positions) loses no start and no stop, wherever it
 * falls. Random tracks (reports/random-track.ts): runs of fixes 1-60 s apart, gaps of 5-30 min and
 * of up to 3 h, jitter at rest, jumps, state records, the `motion` attribute now and then.
 */
const T0 = Date.UTC(2026, 2, 1, 6, 0, 0);
const cfg = (): EventConfig => eventConfigOf(defaultReportSettings().trips, 0);

const trackOf = (deviceId: number, seed: number, fixes: number, still = 0): PositionMessage[] =>
  randomTrack({ deviceId, fixes, seed, start: T0, still }).fixes.map((p) => PositionMessage.parse(p));

/** The store as the reports read it: the device's rows in the span, by fix time then id. */
function storeOf(ps: PositionMessage[]): StoredFixes & { queries: number } {
  const rows = ps.map(rowOf).sort((a, b) => a.deviceId - b.deviceId || a.time - b.time || a.id - b.id);
  const read = async function* (q: { deviceIds: number[]; from: Date; to: Date }) {
    await Promise.resolve();
    read.queries++;
    yield rows.filter((r) => q.deviceIds.includes(r.deviceId) && r.time >= q.from.getTime() && r.time <= q.to.getTime());
  };
  read.queries = 0;
  return read;
}

const motionOnly = (es: EventMessage[]) =>
  es.filter((e) => e.type === 'deviceMoving' || e.type === 'deviceStopped').map((e) => `${e.type}@${e.eventTime}#${e.positionId}`);

/** The state as it comes back from the cache: JSON. */
const throughCache = (s: PositionEventState): PositionEventState => JSON.parse(JSON.stringify(s)) as PositionEventState;

/** Every position in order, the state through the cache after each; `restartAt`: a new instance (memory) from that index on. */
async function run(ps: PositionMessage[], o: { memory: boolean; restartAt?: number[]; store?: StoredFixes }) {
  let memory = o.memory ? new MotionMemory() : undefined;
  let state: PositionEventState | undefined;
  const events: EventMessage[] = [];
  const outcomes: string[] = [];
  for (let i = 0; i < ps.length; i++) {
    const p = ps[i]!;
    if (o.restartAt?.includes(i)) {
      memory = new MotionMemory();
      const m = state?.motionState;
      if (m?.logic === 'new') {
        const due = memory.due([{ deviceId: p.deviceId, state: m, t: cfg().trips }]);
        const r = await memory.recover(due, o.store ?? storeOf(ps.slice(0, i)));
        outcomes.push(r.partial ? 'partial' : r.complete ? 'complete' : 'none');
      }
    }
    const r = positionEvents(state, p, cfg(), undefined, memory);
    state = throughCache(r.state);
    events.push(...r.events);
  }
  return { events: motionOnly(events), state, outcomes };
}

describe('the motion detector held in memory', () => {
  const tracks = [trackOf(31, 101, 1_500), trackOf(32, 202, 1_500, 0.6), trackOf(33, 303, 800)];

  it('gives the events of the state that carried its window, and a thin state without the window', async () => {
    for (const ps of tracks) {
      const carried = await run(ps, { memory: false });
      const held = await run(ps, { memory: true });
      expect(carried.events.length).toBeGreaterThan(20);
      expect(held.events).toEqual(carried.events);
      const c = carried.state!.motionState!;
      const h = held.state!.motionState!;
      expect(c.logic === 'new' && c.window!.length).toBeGreaterThan(0);
      expect(h).toEqual({ ...c, window: undefined });
      expect(JSON.stringify(h)).not.toContain('window');
    }
  });

  it('loses no start and no stop across a restart at any point: the window is read back from the stored positions', async () => {
    for (const ps of tracks) {
      const carried = await run(ps, { memory: false });
      for (let at = 1; at < ps.length; at += 61) {
        const restarted = await run(ps, { memory: true, restartAt: [at] });
        expect(restarted.outcomes, `restart at ${at}`).toEqual(['complete']);
        expect(restarted.events, `restart at ${at} of device ${ps[0]!.deviceId}`).toEqual(carried.events);
        expect(restarted.state!.motionState).toEqual({ ...carried.state!.motionState, window: undefined });
      }
    }
  });

  it('restarts at every fix of a dense drive and stop (a fix a second) give the same events, one query per restart', async () => {
    // 10 min parked, 10 min driving ~15 m/s, 10 min stopped with ±10 m jitter, a short drive
    const base = trackOf(34, 404, 1)[0]!;
    const ps: PositionMessage[] = [];
    for (let s = 0; s < 2_400; s++) {
      const east = s < 600 ? 0 : s < 1_200 ? (s - 600) * 15 : s < 1_800 ? 9_000 + (s % 2 ? 10 : -10) : 9_000 + (s - 1_800) * 12;
      const t = T0 + s * 1000;
      ps.push({
        ...base,
        id: 34 * 1e12 + s,
        fixTime: new Date(t).toISOString(),
        serverTime: new Date(t + 300).toISOString(),
        latitude: -1,
        longitude: 36 + east / 111_320,
        speed: s >= 600 && (s < 1_200 || s >= 1_800) ? 29 : 0,
        attributes: {},
      });
    }
    const carried = await run(ps, { memory: false });
    expect(carried.events.length).toBe(3);
    const store = storeOf(ps);
    for (const at of [1, 590, 601, 610, 700, 1_199, 1_250, 1_380, 1_381, 1_382, 1_790, 1_805, 2_000]) {
      const before = store.queries;
      const restarted = await run(ps, { memory: true, restartAt: [at], store });
      expect(restarted.events, `restart at ${at}`).toEqual(carried.events);
      // the first fix has none before it: its window is read in 2 × minDuration, then in 5 widening spans further back
      expect(store.queries - before).toBe(at > 180 ? 1 : 6);
    }
  });

  it('a restart whose store lacks the last processed fix (the writer behind) counts it partial and goes on', async () => {
    const ps = tracks[0]!;
    const r = await run(ps, { memory: true, restartAt: [500], store: storeOf(ps.slice(0, 450)) });
    expect(r.outcomes).toEqual(['partial']);
    expect(r.state!.motionState!.logic).toBe('new');
  });

  it('reads back a device another instance processed in between (a rebalance), not one it still holds', async () => {
    const ps = tracks[2]!;
    const [a, b] = [new MotionMemory(), new MotionMemory()];
    let state: PositionEventState | undefined;
    const step = (p: PositionMessage, m: MotionMemory) => (state = throughCache(positionEvents(state, p, cfg(), undefined, m).state));
    ps.slice(0, 100).forEach((p) => step(p, a));
    const due = (m: MotionMemory) =>
      m.due([
        {
          deviceId: ps[0]!.deviceId,
          state: state!.motionState as Extract<typeof state, object>['motionState'] & { logic: 'new' },
          t: cfg().trips,
        },
      ]);
    expect(due(a)).toHaveLength(0);
    expect(due(b)).toHaveLength(1);
    await b.recover(due(b), storeOf(ps.slice(0, 100)));
    ps.slice(100, 200).forEach((p) => step(p, b));
    expect(due(a)).toHaveLength(1); // a's detector went on from a fix the state has passed
    expect(due(b)).toHaveLength(0);
  });
});
