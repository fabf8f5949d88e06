import { useMemo } from 'react';
import { companiesEndpoints } from '@corridor/contracts/companies';
import { routesEndpoints } from '@corridor/contracts/routes';
import { endpoint } from '../api/endpoint';
import { useApiQuery } from '../api/hooks';
import { useFleetDevices } from '../live/queries';

export const companiesList = endpoint(companiesEndpoints, 'companies.list');
export const routesList = endpoint(routesEndpoints, 'routes.list');

/** Companies the user may see (their own for company users), by id. */
export function useCompanies() {
  const q = useApiQuery(companiesList, { query: { limit: 1000 } }, { staleTime: 5 * 60_000 });
  const byId = useMemo(() => new Map((q.data?.items ?? []).map((c) => [c.id, c])), [q.data]);
  return { ...q, byId, name: (id: number | null | undefined) => (id ? (byId.get(id)?.name ?? `#${id}`) : '—') };
}

/** Corridor routes, by id. */
export function useRoutes(enabled = true) {
  const q = useApiQuery(routesList, { query: { limit: 1000 } }, { staleTime: 5 * 60_000, enabled });
  const byId = useMemo(() => new Map((q.data ?? []).map((r) => [r.id, r])), [q.data]);
  return { ...q, byId };
}

/** Device names by id (the live fleet list). */
export function useDeviceNames() {
  const q = useFleetDevices();
  const byId = useMemo(() => new Map((q.data ?? []).map((d) => [d.id, d])), [q.data]);
  return (id: number | null | undefined) => (id ? (byId.get(id)?.name ?? `#${id}`) : '—');
}
