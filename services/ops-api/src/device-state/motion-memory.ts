import { counter } from '@corridor/platform';
import type { TrackRow } from '../reports/fixes';
import { newMotionDetector } from '../reports/motion-new-logic';
import type { TripThresholds } from '../reports/settings';
import { restore, type HeldMotion, type MotionHolder, type NewMotionState } from './motion-state';

const recoveries = counter(
  'ops_motion_window_recoveries_total',
  'Motion windows read back from the stored positions (a restart, or the device processed elsewhere since); partial: the store lacked the last processed fix',
  ['outcome'],
);

/** Reads a device's stored positions, oldest first (reports' streamReportFixes). */
export type StoredFixes = (q: { deviceIds: number[]; from: Date; to: Date }) => AsyncIterable<TrackRow[]>;

/** A device whose stored state is thin and whose detector this instance does not hold. */
export interface MotionToRecover {
  deviceId: number;
  state: NewMotionState;
  t: TripThresholds;
}

/** Spans of stopGap × 1, 4, 16, 64, 256 before a window, looking for the fix before it (about 14 days at Traccar's 1 h). */
const FAR_STEPS = 5;
/** Devices whose last fixes lie within this of each other are read back in one query. */
const CLUSTER_MS = 10 * 60_000;

const before = (r: { time: number; id: number }, k: { time: number; id: number }): boolean =>
  r.time < k.time || (r.time === k.time && r.id < k.id);

/**
 * The newer motion model's detectors of the devices this instance processes, held between batches
 * (so a batch neither parses nor writes the window of every device: 180 fixes at a fix a second),
 * while the cache keeps the thin state (moving, anchor, previous fix) of every batch. A detector is
 * used only for the stored state it went on from (the same previous fix): after a restart, or when
 * another instance processed the device in between (a rebalance), the window is read back from the
 * stored positions (recover). Bounded by the devices the instance processes; a device that went
 * silent past the status timeout is forgotten (the sweep) and read back if it reports again.
 */
export class MotionMemory implements MotionHolder {
  private readonly map = new Map<number, HeldMotion>();

  held(deviceId: number, s: NewMotionState): HeldMotion | undefined {
    const h = this.map.get(deviceId);
    return h && h.prev.id === s.prev[1] && h.prev.time === s.prev[0] ? h : undefined;
  }

  hold(deviceId: number, h: HeldMotion): void {
    this.map.set(deviceId, h);
  }

  forget(deviceId: number): void {
    this.map.delete(deviceId);
  }

  clear(): void {
    this.map.clear();
  }

  /** Of these stored states, the ones to read back: thin (no window) and not held here. */
  due(states: Iterable<MotionToRecover>): MotionToRecover[] {
    return [...states].filter((d) => !d.state.window && !this.held(d.deviceId, d.state));
  }

  /**
   * Holds the detector the device had after its stored state's previous fix, its window rebuilt
   * from the stored fixes before that one (`rows`, oldest first) as the live detector trims it:
   * the fixes of the last minDuration and the latest one before them. Partial when the store does
   * not have the previous fix (the position writer behind): the window is then what it has.
   */
  rebuild(d: MotionToRecover, rows: TrackRow[]): 'complete' | 'partial' {
    const prev = restore(d.state.prev, d.deviceId);
    const fixes = rows
      .filter((r) => before(r, prev))
      .map((r) => ({ ...prev, id: r.id, time: r.time, latitude: r.latitude, longitude: r.longitude, speed: r.speed }));
    const window = [...fixes, prev];
    let head = 0;
    while (window.length - head > 1 && prev.time - window[head + 1]!.time >= d.t.minDuration) head++;
    const detector = newMotionDetector(d.t, prev, {
      moving: d.state.moving,
      anchor: restore(d.state.anchor, d.deviceId),
      window: window.slice(head),
    });
    this.hold(d.deviceId, { detector, prev, t: d.t });
    const outcome = rows.some((r) => r.id === prev.id && r.time === prev.time) ? 'complete' : 'partial';
    recoveries.inc({ outcome });
    return outcome;
  }

  /**
   * Reads back the windows of these devices from the stored positions: the fixes of 2 × minDuration
   * before each one's previous fix (one query per cluster of devices whose last fixes are close);
   * a device with no fix older than minDuration in that span (fixes minutes apart, or a gap) is
   * read further back in widening spans for the latest fix before its window (the live window
   * keeps it however old, and a stop is settled against it).
   */
  async recover(list: MotionToRecover[], read: StoredFixes): Promise<{ complete: number; partial: number }> {
    const out = { complete: 0, partial: 0 };
    const rowsOf = async (ds: MotionToRecover[], span: (d: MotionToRecover) => [number, number]) => {
      const byDevice = new Map<number, TrackRow[]>(ds.map((d) => [d.deviceId, []]));
      const spans = new Map(ds.map((d) => [d.deviceId, span(d)]));
      const sorted = [...ds].sort((a, b) => a.state.prev[0] - b.state.prev[0]);
      for (let i = 0; i < sorted.length;) {
        let j = i + 1;
        while (j < sorted.length && sorted[j]!.state.prev[0] - sorted[i]!.state.prev[0] <= CLUSTER_MS) j++;
        const cluster = sorted.slice(i, j);
        const from = Math.min(...cluster.map((d) => spans.get(d.deviceId)![0]));
        const to = Math.max(...cluster.map((d) => spans.get(d.deviceId)![1]));
        for await (const batch of read({ deviceIds: cluster.map((d) => d.deviceId), from: new Date(from), to: new Date(to) }))
          for (const r of batch) {
            const [d, s] = [byDevice.get(r.deviceId), spans.get(r.deviceId)];
            if (d && s && r.time >= s[0] && r.time <= s[1]) d.push(r);
          }
        i = j;
      }
      return byDevice;
    };
    const near = await rowsOf(list, (d) => [d.state.prev[0] - 2 * d.t.minDuration, d.state.prev[0]]);
    // the latest fix before the window, however old (a truck parked for hours): read back in widening spans
    const older = new Map<number, TrackRow>();
    let pending = list.filter((d) => !near.get(d.deviceId)!.some((r) => d.state.prev[0] - r.time >= d.t.minDuration));
    for (let step = 0, reach = 1; pending.length && step < FAR_STEPS; step++, reach *= 4) {
      const span = (d: MotionToRecover): [number, number] => {
        const end = d.state.prev[0] - 2 * d.t.minDuration - 1 - ((reach - 1) / 3) * d.t.stopGap;
        return [end - reach * d.t.stopGap, end];
      };
      const far = await rowsOf(pending, span);
      for (const d of pending) {
        const last = far.get(d.deviceId)!.at(-1);
        if (last) older.set(d.deviceId, last);
      }
      pending = pending.filter((d) => !older.has(d.deviceId));
    }
    for (const d of list) {
      const first = older.get(d.deviceId);
      out[this.rebuild(d, first ? [first, ...near.get(d.deviceId)!] : near.get(d.deviceId)!)]++;
    }
    return out;
  }
}
