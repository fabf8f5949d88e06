import type { FeatureCollection, Point } from 'geojson';
import type { Device } from '@corridor/contracts/devices';
import type { Position } from '@corridor/contracts/positions';

/** A truck's state as the map colours it. */
export type TruckState = 'moving' | 'stopped' | 'offline' | 'unknown';
export const TRUCK_STATES: readonly TruckState[] = ['moving', 'stopped', 'offline', 'unknown'];

/** Below this speed (knots, ~3.7 km/h) a truck counts as stopped, when its fix says nothing of motion. */
const MOVING_KNOTS = 2;
/** A fix older than this is shown with its age rather than its speed: the truck may have moved on or stopped since. */
const QUIET_MS = 2 * 60_000;

/**
 * The state the server's device status allows: moving or stopped only while the device is online
 * (by the latest fix's `motion`, as the server's moving/stopped events decide it, else its speed);
 * offline and unknown (pending: never heard from) as the status says. A truck that fell silent is
 * not "moving" on the strength of its last fix once the server has stopped calling it online.
 */
export function truckState(
  device: Pick<Device, 'status'> | undefined,
  position: Pick<Position, 'speed' | 'attributes'> | undefined,
): TruckState {
  if (device?.status === 'offline') return 'offline';
  if (device?.status !== 'online' || !position) return 'unknown';
  const motion = position.attributes?.motion;
  if (typeof motion === 'boolean') return motion ? 'moving' : 'stopped';
  return position.speed >= MOVING_KNOTS ? 'moving' : 'stopped';
}

export interface FleetRow {
  device: Device;
  position: Position | undefined;
  state: TruckState;
  /** The latest fix is older than QUIET_MS (its speed is old news). */
  quiet: boolean;
}

/** Devices joined with their latest positions, in name order. */
export function fleetRows(
  devices: readonly Device[] | undefined,
  positions: readonly Position[] | undefined,
  now = Date.now(),
): FleetRow[] {
  const latest = new Map((positions ?? []).map((p) => [p.deviceId, p]));
  return (devices ?? [])
    .map((device) => {
      const position = latest.get(device.id);
      return {
        device,
        position,
        state: truckState(device, position),
        quiet: position !== undefined && now - Date.parse(position.fixTime) > QUIET_MS,
      };
    })
    .sort((a, b) => a.device.name.localeCompare(b.device.name));
}

/** The trucks layer: one point per device with a position, with what the layer styles on. */
export function truckFeatures(
  rows: readonly FleetRow[],
  opts: { selected?: number | null; flaggedDevices?: ReadonlySet<number> } = {},
): FeatureCollection<Point> {
  const features: FeatureCollection<Point>['features'] = [];
  for (const r of rows) {
    if (!r.position) continue;
    features.push({
      type: 'Feature',
      id: r.device.id,
      properties: {
        deviceId: r.device.id,
        name: r.device.name,
        state: r.state,
        selected: r.device.id === opts.selected,
        flagged: opts.flaggedDevices?.has(r.device.id) ?? false,
      },
      geometry: { type: 'Point', coordinates: [r.position.longitude, r.position.latitude] },
    });
  }
  return { type: 'FeatureCollection', features };
}

/** Search by name or unique id, and filter by state. */
export function filterFleet(rows: readonly FleetRow[], search: string, states: ReadonlySet<TruckState>): FleetRow[] {
  const q = search.trim().toLowerCase();
  return rows.filter(
    (r) => (states.size === 0 || states.has(r.state)) && (!q || r.device.name.toLowerCase().includes(q) || r.device.uniqueId.includes(q)),
  );
}
