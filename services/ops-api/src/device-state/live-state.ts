import type { Device } from '@corridor/contracts';
import { unavailable, type Cache } from '@corridor/platform';
import type { DeviceLiveState } from './status';

/** Cache keys of the device state (ops-api writes and reads them). */
export const liveKeys = {
  state: (deviceId: number): string => `device-state:${deviceId}`,
  lock: (deviceId: number): string => `device-state:lock:${deviceId}`,
  /** hash: device id → lastUpdate (ms) of every online device, what the timeout sweep reads */
  online: (): string => 'device-state:online',
  sweep: (): string => 'device-state:sweep',
};

function parse(raw: string | null | undefined): DeviceLiveState | undefined {
  if (!raw) return undefined;
  try {
    const s = JSON.parse(raw) as DeviceLiveState;
    return s?.v === 1 ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The live state of devices from the cache (absent: none known yet). */
export async function readLiveStates(cache: Cache, deviceIds: number[]): Promise<Map<number, DeviceLiveState>> {
  const out = new Map<number, DeviceLiveState>();
  for (let i = 0; i < deviceIds.length; i += 1000) {
    const chunk = deviceIds.slice(i, i + 1000);
    let raw: (string | null)[];
    try {
      raw = await cache.mget(chunk.map(liveKeys.state));
    } catch (err) {
      throw unavailable('cache', err);
    }
    chunk.forEach((id, k) => {
      const s = parse(raw[k]);
      if (s) out.set(id, s);
    });
  }
  return out;
}

export async function saveLiveStates(cache: Cache, states: Map<number, DeviceLiveState>): Promise<void> {
  if (!states.size) return;
  const online: Record<string, string> = {};
  const gone: string[] = [];
  for (const [id, s] of states) {
    if (s.status === 'online') online[String(id)] = String(s.lastUpdate ?? s.statusTime);
    else gone.push(String(id));
  }
  try {
    await Promise.all([...states].map(([id, s]) => cache.set(liveKeys.state(id), JSON.stringify(s))));
    if (Object.keys(online).length) await cache.hset(liveKeys.online(), online);
    if (gone.length) await cache.hdel(liveKeys.online(), ...gone);
  } catch (err) {
    throw unavailable('cache', err);
  }
}

/** The Device with its live status, lastUpdate and positionId (PostgreSQL lags them by up to DEVICE_STATE_PERSIST_S). */
export function withLiveState<T extends { status: Device['status']; lastUpdate?: string | null; positionId?: number | null }>(
  d: T,
  s: DeviceLiveState | undefined,
): T {
  if (!s || d.status === 'pending') return d;
  return {
    ...d,
    status: s.status,
    lastUpdate: s.lastUpdate === null ? (d.lastUpdate ?? null) : new Date(s.lastUpdate).toISOString(),
    positionId: s.positionId ?? d.positionId ?? null,
  };
}
