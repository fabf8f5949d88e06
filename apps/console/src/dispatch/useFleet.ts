import { useEffect, useMemo, useState } from 'react';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { endpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';
import { useFleetDevices, useLatestPositions } from '../live/queries';
import { may } from '../session/access';
import { useUser } from '../session/useUser';
import { fleetRows } from './truck-features';

const flaggedJourneys = endpoint(journeysEndpoints, 'journeys.flagged');
export const activeJourneys = endpoint(journeysEndpoints, 'journeys.active');

/** Every truck the user may see with its latest position and state, kept live by the socket. */
export function useFleet() {
  const devices = useFleetDevices();
  const positions = useLatestPositions();
  const now = useClock(30_000);
  const rows = useMemo(() => fleetRows(devices.data, positions.data, now), [devices.data, positions.data, now]);
  return {
    rows,
    isPending: devices.isPending || positions.isPending,
    error: devices.error ?? positions.error,
    refetch: () => void Promise.all([devices.refetch(), positions.refetch()]),
  };
}

/** Devices whose journeys have open flags (their trucks get a red ring). */
export function useFlaggedDevices(): ReadonlySet<number> {
  const user = useUser();
  const q = useApiQuery(flaggedJourneys, { query: { limit: 1000 } }, { enabled: may(user, flaggedJourneys) });
  return useMemo(() => new Set((q.data ?? []).map((j) => j.deviceId)), [q.data]);
}

/** The time, renewed every `everyMs`: what was recent turns old even when no frame arrives. */
function useClock(everyMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
