import type { QueryClient } from '@tanstack/react-query';
import { devicesEndpoints, type Device, type DeviceRegistryMessage } from '@corridor/contracts/devices';
import type { Event } from '@corridor/contracts/events';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import type { Position } from '@corridor/contracts/positions';
import { endpoint } from '../api/endpoint';
import { call } from '../api/client';
import type { ApiError } from '../api/errors';
import { keyOf, useApiQuery } from '../api/hooks';
import { useQuery } from '@tanstack/react-query';

const positionsList = endpoint(positionsEndpoints, 'positions.list');
const devicesList = endpoint(devicesEndpoints, 'devices.list');

/** The fleet as the live screens see it: every device the user may see, read in pages of 1,000 (the API's cap). */
const fleetDevicesInput = { query: { limit: 1000 } } as const;
const FLEET_PAGE = fleetDevicesInput.query.limit;
export const latestPositionsKey = keyOf(positionsList, {});
export const fleetDevicesKey = keyOf(devicesList, fleetDevicesInput);
const liveEventsKey = ['live.events'] as const;
export const newFlagsKey = ['live.newFlags'] as const;
const MAX_EVENTS = 200;

/** Latest position of every device, kept current by the live feed. */
export const useLatestPositions = () => useApiQuery(positionsList, {}, { staleTime: Infinity });
export const useFleetDevices = () =>
  useQuery<Device[], ApiError>({
    queryKey: fleetDevicesKey,
    staleTime: Infinity,
    queryFn: async ({ signal }) => {
      const all: Device[] = [];
      for (let offset = 0; ; offset += FLEET_PAGE) {
        const page = await call(devicesList, { query: { limit: FLEET_PAGE, offset }, signal });
        all.push(...page);
        if (page.length < FLEET_PAGE) return all;
      }
    },
  });
/** Flags opened since the user last looked at the flagged tab. */
export const useNewFlags = () => useQuery<Event[]>({ queryKey: newFlagsKey, queryFn: () => [], staleTime: Infinity, initialData: [] });

/** Positions merge by device: a fix replaces the device's latest unless it is older. */
export function mergePositions(current: Position[] | undefined, incoming: Position[]): Position[] {
  const byDevice = new Map<number, Position>();
  for (const p of current ?? []) byDevice.set(p.deviceId, p);
  for (const p of incoming) {
    const old = byDevice.get(p.deviceId);
    if (!old || Date.parse(p.fixTime) >= Date.parse(old.fixTime)) byDevice.set(p.deviceId, p);
  }
  return [...byDevice.values()];
}

/** Registry changes merge into the device list: status and names change in place, deleted devices go. */
export function mergeDevices(current: Device[] | undefined, changes: DeviceRegistryMessage[]): Device[] | undefined {
  if (!current) return current;
  const byId = new Map(current.map((d) => [d.id, d]));
  for (const c of changes) {
    if (c.deleted) {
      byId.delete(c.id);
      continue;
    }
    const old = byId.get(c.id);
    if (old)
      byId.set(c.id, {
        ...old,
        name: c.name,
        uniqueId: c.uniqueId,
        disabled: c.disabled,
        companyId: c.companyId,
        groupId: c.groupId,
        status: c.status,
      });
  }
  return [...byId.values()];
}

/** Applies one batch of live frames to the query cache (the one store of server state). */
export function applyLive(
  client: QueryClient,
  frame: { positions?: Position[]; devices?: DeviceRegistryMessage[]; events?: Event[] },
): void {
  if (frame.positions?.length) {
    client.setQueryData<Position[]>(latestPositionsKey, (cur) => mergePositions(cur, frame.positions!));
    const touched = new Set(frame.positions.map((p) => p.deviceId));
    const last = new Map(frame.positions.map((p) => [p.deviceId, p]));
    client.setQueryData<Device[]>(fleetDevicesKey, (cur) =>
      cur?.map((d) => (touched.has(d.id) ? { ...d, lastUpdate: last.get(d.id)!.serverTime, positionId: last.get(d.id)!.id } : d)),
    );
  }
  if (frame.devices?.length) {
    const known = client.getQueryData<Device[]>(fleetDevicesKey);
    const unknown = frame.devices.some((d) => !d.deleted && !known?.some((k) => k.id === d.id));
    client.setQueryData<Device[]>(fleetDevicesKey, (cur) => mergeDevices(cur, frame.devices!));
    if (unknown) void client.invalidateQueries({ queryKey: [devicesList.id] });
  }
  if (frame.events?.length) {
    client.setQueryData<Event[]>(liveEventsKey, (cur) => [...frame.events!, ...(cur ?? [])].slice(0, MAX_EVENTS));
    const opened = frame.events.filter((e) => e.type === 'journeyFlagOpened' && e.attributes.escalated !== true);
    if (opened.length) client.setQueryData<Event[]>(newFlagsKey, (cur) => [...opened, ...(cur ?? [])].slice(0, MAX_EVENTS));
    if (frame.events.some((e) => e.type.startsWith('journey')))
      void client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith('journeys.') });
  }
}
