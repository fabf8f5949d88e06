import { useMutation, useQuery, useQueryClient, type QueryKey, type UseQueryOptions } from '@tanstack/react-query';
import type { EndpointDef } from '@corridor/contracts/endpoint';
import { call } from './client';
import type { ApiError } from './errors';
import type { CallInput, ResponseOf } from './types';

type ReadInput<E extends EndpointDef> = Omit<CallInput<E>, 'body' | 'signal'>;

/** Query keys come from the endpoint id: ['journeys.flagged', params, query]. */
export function keyOf<E extends EndpointDef>(def: E, input?: ReadInput<E>): QueryKey {
  const { params, query } = (input ?? {}) as { params?: unknown; query?: unknown };
  return [def.id, params ?? null, query ?? null];
}

export function useApiQuery<E extends EndpointDef>(
  def: E,
  input?: ReadInput<E>,
  options: Omit<UseQueryOptions<ResponseOf<E>, ApiError>, 'queryKey' | 'queryFn'> = {},
) {
  return useQuery<ResponseOf<E>, ApiError>({
    queryKey: keyOf(def, input),
    queryFn: ({ signal }) => call(def, { ...(input ?? {}), signal } as CallInput<E>),
    ...options,
  });
}

/**
 * A write; on success the listed endpoints' queries (by id prefix) are refetched, so every
 * screen showing them agrees with the server.
 */
export function useApiMutation<E extends EndpointDef>(
  def: E,
  opts: { invalidates?: readonly string[]; onSuccess?: (data: ResponseOf<E>) => void } = {},
) {
  const client = useQueryClient();
  return useMutation<ResponseOf<E>, ApiError, Omit<CallInput<E>, 'signal'>>({
    mutationFn: (input) => call(def, input as CallInput<E>),
    onSuccess: async (data) => {
      opts.onSuccess?.(data);
      await Promise.all(
        (opts.invalidates ?? []).map((prefix) =>
          client.invalidateQueries({ predicate: (q) => typeof q.queryKey[0] === 'string' && q.queryKey[0].startsWith(prefix) }),
        ),
      );
    },
  });
}
