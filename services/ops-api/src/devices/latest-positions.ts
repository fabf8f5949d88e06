import { PositionMessage } from '@corridor/contracts';
import { cacheKeys, queryLatestPositions, type Analytics, type Cache } from '@corridor/platform';

/** Latest position per device: the shared cache first (the position writer keeps it), ClickHouse for the rest. */
export function latestPositions(deps: { cache: Cache; analytics: Analytics }) {
  const fromStore = queryLatestPositions(deps.analytics);
  return async (deviceIds: number[]): Promise<Map<number, PositionMessage>> => {
    const out = new Map<number, PositionMessage>();
    if (!deviceIds.length) return out;
    const cached = await deps.cache.mget(deviceIds.map(cacheKeys.latestPosition));
    const missing: number[] = [];
    deviceIds.forEach((id, i) => {
      const c = cached[i];
      const parsed = c ? PositionMessage.safeParse(JSON.parse(c)) : undefined;
      if (parsed?.success) out.set(id, parsed.data);
      else missing.push(id);
    });
    if (missing.length) for (const p of await fromStore(missing)) out.set(p.deviceId, p);
    return out;
  };
}
export type LatestPositions = ReturnType<typeof latestPositions>;
