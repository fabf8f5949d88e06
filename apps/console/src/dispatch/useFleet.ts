import { useMemo } from 'react';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { endpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';
import { useFleetDevices, useLatestPositions } from '../live/queries';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { fleetRows } from './truck-features';

export const flaggedJourneys = endpoint(journeysEndpoints, 'journeys.flagged');
export const activeJourneys = endpoint(journeysEndpoints, 'journeys.active');

/** Every truck the user may see with its latest position and state, kept live by the socket. */
export function useFleet() {
  const devices = useFleetDevices();
  const positions = useLatestPositions();
  const rows = useMemo(() => fleetRows(devices.data, positions.data), [devices.data, positions.data]);
  return { rows, isPending: devices.isPending || positions.isPending, error: devices.error ?? positions.error, refetch: () => void Promise.all([devices.refetch(), positions.refetch()]) };
}

/** Devices whose journeys have open flags (their trucks get a red ring). */
export function useFlaggedDevices(): ReadonlySet<number> {
  const user = useUser();
  const q = useApiQuery(flaggedJourneys, { query: { limit: 1000 } }, { enabled: may(user, flaggedJourneys) });
  return useMemo(() => new Set((q.data ?? []).map((j) => j.deviceId)), [q.data]);
}
