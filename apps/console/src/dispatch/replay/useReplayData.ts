import { useMemo } from 'react';
import { eventsEndpoints } from '@corridor/contracts/events-api';
import type { JourneyFlag } from '@corridor/contracts/journeys';
import { positionsEndpoints } from '@corridor/contracts/positions-api';
import { reportsEndpoints } from '@corridor/contracts/reports';
import { endpoint } from '../../api/endpoint';
import { useApiQuery } from '../../api/hooks';
import { replayMarks, replayTrack } from './replay-model';

const positions = endpoint(positionsEndpoints, 'positions.list');
const events = endpoint(eventsEndpoints, 'events.list');
const stops = endpoint(reportsEndpoints, 'reports.stops');

/** The most fixes one replay asks for (the API's cap): a day of 1 s fixes would be cut, a day of 10 s fixes is not. */
const REPLAY_LIMIT = 50_000;

/**
 * What a replay of one device over a period needs: its fixes, its events and its stops (three
 * requests at once). `flags`: a journey's own flags, instead of those its events tell of.
 */
export function useReplayData(deviceId: number, from: string, to: string, flags?: readonly JourneyFlag[]) {
  const q = { deviceId: [deviceId], from, to };
  const fixes = useApiQuery(positions, { query: { ...q, limit: REPLAY_LIMIT } }, { staleTime: 60_000 });
  const happened = useApiQuery(events, { query: { ...q, limit: 10_000 } }, { staleTime: 60_000 });
  const stopped = useApiQuery(stops, { query: q }, { staleTime: 60_000 });
  const track = useMemo(() => (fixes.data ? replayTrack(fixes.data) : null), [fixes.data]);
  const marks = useMemo(
    () => (track ? replayMarks(track, { stops: stopped.data ?? [], events: happened.data ?? [], flags }) : []),
    [track, stopped.data, happened.data, flags],
  );
  return {
    track,
    marks,
    truncated: (fixes.data?.length ?? 0) >= REPLAY_LIMIT,
    isPending: fixes.isPending,
    // the fixes make a replay; without events or stops it still plays, and says what is missing
    error: fixes.error,
    partial: happened.error ?? stopped.error ?? null,
    refetch: () => void Promise.all([fixes.refetch(), happened.refetch(), stopped.refetch()]),
  };
}
