import type { EndpointDef } from '@corridor/contracts/endpoint';

/** One endpoint of a contracts list, by id, with its exact type: `endpoint(journeysEndpoints, 'journeys.flagged')`. */
export function endpoint<const L extends readonly EndpointDef[], const I extends L[number]['id']>(
  list: L,
  id: I,
): Extract<L[number], { id: I }> {
  const def = list.find((e) => e.id === id);
  if (!def) throw new Error(`no endpoint ${id}`);
  return def as Extract<L[number], { id: I }>;
}

/**
 * An endpoint of a generic resource list (resourceEndpoints builds ids such as 'groups.list', so
 * they are not literal types): found by id, typed as the entries of that list with the given shape.
 */
export function resourceEndpoint<S>() {
  return <const L extends readonly EndpointDef[]>(list: L, id: string): Extract<L[number], S> => {
    const def = list.find((e) => e.id === id);
    if (!def) throw new Error(`no endpoint ${id}`);
    return def as Extract<L[number], S>;
  };
}
