import type { FeatureCollection, Point } from 'geojson';
import type { Device } from '@corridor/contracts/devices';
import type { PositionMessage } from '@corridor/contracts/positions';

/** A truck's state as the map colours it. */
export type TruckState = 'moving' | 'stopped' | 'offline' | 'unknown';
export const TRUCK_STATES: readonly TruckState[] = ['moving', 'stopped', 'offline', 'unknown'];

/** Below this speed (knots, ~3.7 km/h) a truck counts as stopped. */
export const MOVING_KNOTS = 2;
/** Without a status from the server, a truck whose last report is older than this counts as offline (Traccar's default timeout). */
export const STALE_MS = 10 * 60_000;

/**
 * Offline when the server says so; otherwise moving or stopped by the latest fix's speed. A device
 * whose status the server does not know yet is judged by how recent its last report is.
 */
export function truckState(device: Pick<Device, 'status'> | undefined, position: Pick<PositionMessage, 'speed' | 'serverTime'> | undefined, now = Date.now()): TruckState {
  if (device?.status === 'offline') return 'offline';
  if (!position) return 'unknown';
  if (device?.status !== 'online' && now - Date.parse(position.serverTime) > STALE_MS) return 'offline';
  return position.speed >= MOVING_KNOTS ? 'moving' : 'stopped';
}

export interface FleetRow {
  device: Device;
  position: PositionMessage | undefined;
  state: TruckState;
}

/** Devices joined with their latest positions, in name order. */
export function fleetRows(devices: readonly Device[] | undefined, positions: readonly PositionMessage[] | undefined): FleetRow[] {
  const latest = new Map((positions ?? []).map((p) => [p.deviceId, p]));
  return (devices ?? [])
    .map((device) => {
      const position = latest.get(device.id);
      return { device, position, state: truckState(device, position) };
    })
    .sort((a, b) => a.device.name.localeCompare(b.device.name));
}

/** The trucks layer: one point per device with a position, with what the layer styles on. */
export function truckFeatures(rows: readonly FleetRow[], opts: { selected?: number | null; flaggedDevices?: ReadonlySet<number> } = {}): FeatureCollection<Point> {
  const features: FeatureCollection<Point>['features'] = [];
  for (const r of rows) {
    if (!r.position) continue;
    features.push({
      type: 'Feature',
      id: r.device.id,
      properties: { deviceId: r.device.id, name: r.device.name, state: r.state, selected: r.device.id === opts.selected, flagged: opts.flaggedDevices?.has(r.device.id) ?? false },
      geometry: { type: 'Point', coordinates: [r.position.longitude, r.position.latitude] },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** Search by name or unique id, and filter by state. */
export function filterFleet(rows: readonly FleetRow[], search: string, states: ReadonlySet<TruckState>): FleetRow[] {
  const q = search.trim().toLowerCase();
  return rows.filter((r) => (states.size === 0 || states.has(r.state)) && (!q || r.device.name.toLowerCase().includes(q) || r.device.uniqueId.includes(q)));
}
