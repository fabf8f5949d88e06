import { useMemo, useRef, useState } from 'react';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { companiesEndpoints } from '@corridor/contracts/companies';
import { devicesEndpoints } from '@corridor/contracts/devices';
import { groupsEndpoints, type Group } from '@corridor/contracts/groups';
import { routesEndpoints } from '@corridor/contracts/routes';
import { call } from '../api/client';
import { endpoint, resourceEndpoint } from '../api/endpoint';
import { isApiError, type ApiError } from '../api/errors';
import { keyOf, useApiQuery } from '../api/hooks';
import { useFleetDevices } from '../live/queries';

export const companiesList = endpoint(companiesEndpoints, 'companies.list');
const companyNames = endpoint(companiesEndpoints, 'companies.names');
const companyGet = endpoint(companiesEndpoints, 'companies.get');
const deviceGet = endpoint(devicesEndpoints, 'devices.get');
const routesList = endpoint(routesEndpoints, 'routes.list');
const groupsList = resourceEndpoint<{ method: 'get'; request: { query: unknown } }>()(groupsEndpoints, 'groups.list');

type Named = { id: number; name: string };
type GetOne = typeof companyGet | typeof deviceGet;

/**
 * Names records by id: from the list the screen loaded, else from the one record read by id (once,
 * through the query cache it shares with the record's own screen, so the list keeps its size). An id
 * the API answers 404 or 403 for is named "unknown company (id N)"; one that could not be loaded for
 * another reason (the network, a 5xx) says so with its id. While a record loads it says "loading…".
 */
function useNames(def: GetOne, list: { byId: ReadonlyMap<number, Named>; settled: boolean }, kind: 'company' | 'device') {
  const { t } = useTranslation();
  // the ids not in the list, in the order first asked; name() adds to it after the render that asked
  const [asked, setAsked] = useState<readonly number[]>([]);
  const queued = useRef(new Set<number>());
  const results = useQueries({
    queries: asked.map((id) => ({
      queryKey: keyOf(def, { params: { id } }),
      queryFn: ({ signal }: { signal: AbortSignal }) => call(def as typeof deviceGet, { params: { id }, signal }) as Promise<Named>,
      staleTime: 5 * 60_000,
    })),
  });
  const fetched = new Map(asked.map((id, i) => [id, results[i]!]));
  const ask = (id: number) => {
    if (queued.current.has(id)) return;
    queued.current.add(id);
    // never a state update during a render (name() is called while rendering, also by child components)
    queueMicrotask(() => setAsked((prev) => (prev.includes(id) ? prev : [...prev, id])));
  };
  return (id: number | null | undefined): string => {
    if (!id) return '—';
    const inList = list.byId.get(id);
    if (inList) return inList.name;
    if (!list.settled) return t('common.loadingRef');
    const one = fetched.get(id);
    if (!one) {
      ask(id);
      return t('common.loadingRef');
    }
    if (one.data) return one.data.name;
    const error = one.error as ApiError | null;
    if (!error) return t('common.loadingRef');
    const refused = isApiError(error) && (error.status === 404 || error.status === 403);
    return t(refused ? `lookups.unknown.${kind}` : `lookups.unloaded.${kind}`, { id });
  };
}

/** Companies the user may see (their own for company users), by id; `name` names any company id. */
export function useCompanies() {
  const q = useApiQuery(companiesList, { query: { limit: 1000 } }, { staleTime: 5 * 60_000 });
  const byId = useMemo(() => new Map((q.data?.items ?? []).map((c) => [c.id, c])), [q.data]);
  const name = useNames(companyGet, { byId, settled: !q.isPending }, 'company');
  return { ...q, byId, name };
}

/** Every company's name, country and kind (any signed-in user: to choose another company, as a complaint does). */
export function useCompanyNames() {
  return useApiQuery(companyNames, { query: { limit: 1000 } }, { staleTime: 5 * 60_000 });
}

/** Corridor routes, by id. */
export function useRoutes(enabled = true) {
  const q = useApiQuery(routesList, { query: { limit: 1000 } }, { staleTime: 5 * 60_000, enabled });
  const byId = useMemo(() => new Map((q.data ?? []).map((r) => [r.id, r])), [q.data]);
  return { ...q, byId };
}

/** Device names by id: the live fleet list, else the device read by id. */
export function useDeviceNames() {
  const q = useFleetDevices();
  const byId = useMemo(() => new Map((q.data ?? []).map((d) => [d.id, d])), [q.data]);
  return useNames(deviceGet, { byId, settled: !q.isPending }, 'device');
}

/** Device groups the user may see, by id. */
export function useGroups() {
  const q = useApiQuery(groupsList, { query: { limit: 1000 } }, { staleTime: 5 * 60_000 });
  const items = useMemo(() => ((q.data ?? []) as Group[]).slice().sort((a, b) => a.name.localeCompare(b.name)), [q.data]);
  const byId = useMemo(() => new Map(items.map((g) => [g.id, g])), [items]);
  return { ...q, items, byId };
}
