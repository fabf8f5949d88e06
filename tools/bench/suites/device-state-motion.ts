/**
 * ops-api's device state per position, the part the motion window changes (issue 28): a batch's
 * live states read from the cache (JSON.parse), each position through the device's event steps
 * (position-events.ts: ignition, motion, overspeed, driver, fuel, maintenance), the states written
 * back (JSON.stringify), on the embedded cache. Two ways, alternated in one run:
 * - `carried`: the newer motion model's window travels in the state (what main did before: 180
 *   fixes at a fix a second, parsed and written per batch per device);
 * - `held`: the detector held in memory by the instance (motion-memory.ts), the state thin.
 * DEVICES trucks each drive and park in turns of 5 to 9 minutes (a trip and a stop each way), a
 * fix every EVERY_S seconds; after a warm-up that fills the windows, ROUNDS rounds of a batch per
 * second of fixes (every device's fix of that second, as a consumer's batch), both ways each
 * round, the order swapped every round. Figures: CPU µs per position (process.cpuUsage, both ways
 * on one thread), bytes of a device's state in the cache, the motion events found (equal both ways).
 * Left out (the same both ways): the device locks, event settings, the event writes.
 */
import { PositionMessage, positionId } from '@corridor/contracts';
import { MemoryCache } from '@corridor/platform';
import { eventConfigOf } from '@corridor/ops-api/device-state/event-config';
import { readLiveStates, saveLiveStates } from '@corridor/ops-api/device-state/live-state';
import { MotionMemory } from '@corridor/ops-api/device-state/motion-memory';
import { positionEvents } from '@corridor/ops-api/device-state/position-events';
import { freshState, type DeviceLiveState } from '@corridor/ops-api/device-state/status';
import { defaultReportSettings } from '@corridor/ops-api/reports/settings';
import { load1m } from '../parts';
import { round } from '../stats';

const DEVICES = Number(process.env.DEVICE_STATE_DEVICES ?? 200);
const ROUNDS = Number(process.env.DEVICE_STATE_ROUNDS ?? 6);
const ROUND_S = 60; // seconds of fixes per round and way
const WARM_S = 600;
const T0 = Date.UTC(2026, 0, 5, 6, 0, 0);
const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

/** Device d's fix at second s: drives east at 15 m/s or parks with ±8 m of jitter, in turns of 300 + 60·(d mod 5) s. */
function fixAt(d: number, s: number): PositionMessage {
  const turn = 300 + 60 * (d % 5);
  const leg = Math.floor((s + d * 37) / turn);
  const driving = leg % 2 === 1;
  const east = Math.floor(leg / 2) * turn * 15 + (driving ? ((s + d * 37) % turn) * 15 : s % 2 ? 8 : -8);
  const t = T0 + s * 1000;
  return PositionMessage.parse({
    id: positionId(d, t),
    deviceId: d,
    uniqueId: String(358_100_000_000_000 + d),
    protocol: 'gt06',
    fixTime: new Date(t).toISOString(),
    serverTime: new Date(t + 800).toISOString(),
    valid: true,
    latitude: -1.3 - d / 1000,
    longitude: 36.8 + east / 111_320,
    speed: driving ? 29.2 : 0,
    course: 90,
    ignition: driving,
    attributes: { ignition: driving, motion: driving, totalDistance: east, distance: driving ? 15 : 0 },
  });
}

interface Way {
  name: 'carried' | 'held';
  cache: MemoryCache;
  memory?: MotionMemory;
  events: number;
  cpu: number[];
  bytes: number;
}

export default async function run(): Promise<Record<string, number | string>> {
  const every = Number(process.env.DEVICE_STATE_EVERY_S ?? 1);
  const cfg = eventConfigOf(defaultReportSettings().trips, 0);
  const ids = Array.from({ length: DEVICES }, (_, i) => i + 1);
  const ways: Way[] = [
    { name: 'carried', cache: new MemoryCache(), events: 0, cpu: [], bytes: 0 },
    { name: 'held', cache: new MemoryCache(), memory: new MotionMemory(), events: 0, cpu: [], bytes: 0 },
  ];
  /** One consumer batch: every device's fix of second s. */
  async function batch(w: Way, s: number): Promise<void> {
    const before = await readLiveStates(w.cache, ids);
    const next = new Map<number, DeviceLiveState>();
    for (const d of ids) {
      const state = before.get(d) ?? freshState(String(d));
      const r = positionEvents(state.events, fixAt(d, s), cfg, undefined, w.memory);
      for (const e of r.events) if (e.type === 'deviceMoving' || e.type === 'deviceStopped') w.events++;
      next.set(d, { ...state, events: r.state });
    }
    await saveLiveStates(w.cache, next);
  }
  const out: Record<string, number | string> = { load_start: load1m() };
  for (const w of ways) for (let s = 0; s < WARM_S; s += every) await batch(w, s);
  let second = WARM_S;
  for (let r = 0; r < ROUNDS; r++) {
    const order = r % 2 ? [...ways].reverse() : ways;
    for (const w of order) {
      const cpu = process.cpuUsage();
      for (let s = 0; s < ROUND_S; s += every) await batch(w, second + s);
      const used = process.cpuUsage(cpu);
      w.cpu.push((used.user + used.system) / ((ROUND_S / every) * DEVICES));
    }
    second += ROUND_S;
  }
  for (const w of ways) {
    const raw = await w.cache.mget(ids.map((d) => `device-state:${d}`));
    w.bytes = raw.reduce((a, v) => a + (v?.length ?? 0), 0) / ids.length;
    out[`${w.name}.cpu_us_per_position`] = round(median(w.cpu));
    out[`${w.name}.state_bytes_per_device`] = Math.round(w.bytes);
    out[`${w.name}.motion_events`] = w.events;
  }
  if (ways[0]!.events !== ways[1]!.events)
    throw new Error(`the two ways found different motion events: ${ways[0]!.events} and ${ways[1]!.events}`);
  out['held_over_carried.cpu'] = round(median(ways[1]!.cpu) / median(ways[0]!.cpu));
  out['held_over_carried.state_bytes'] = round(ways[1]!.bytes / ways[0]!.bytes);
  out.load_end = load1m();
  out.setup = `${DEVICES} devices, a fix every ${every} s (window ${Math.ceil(180 / every)} fixes), batches of one second's fixes; ${ROUNDS} rounds of ${ROUND_S} s per way after ${WARM_S} s of warm-up, medians of CPU per position`;
  return out;
}
