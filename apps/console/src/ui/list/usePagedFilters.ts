import { useState } from 'react';

/** Rows a list screen asks for at a time. */
const PAGE_SIZE = 25;

/**
 * A list screen's filters (as the controls hold them: text, '' for "all") and its page. Changing a
 * filter goes back to the first page; `filtered` tells an empty result ("nothing matches") from an
 * empty list ("nothing yet").
 */
export function usePagedFilters<F extends Record<string, string>>(initial: F, limit = PAGE_SIZE) {
  const [filters, setFilters] = useState<F>(initial);
  const [offset, setOffset] = useState(0);
  return {
    filters,
    offset,
    limit,
    setOffset,
    set<K extends keyof F>(key: K, value: F[K]) {
      setOffset(0);
      setFilters((f) => ({ ...f, [key]: value }));
    },
    /** Every filter back to its start (another tab, another kind of list). */
    reset() {
      setOffset(0);
      setFilters(initial);
    },
    filtered: Object.values(filters).some((v) => v.trim() !== ''),
  };
}
export type PagedFilters = Pick<ReturnType<typeof usePagedFilters>, 'offset' | 'limit' | 'setOffset' | 'filtered'>;

/** A one-value choice as the API's repeated filter (undefined for "all"). */
export const oneOf = <T extends string>(v: T | '') => (v ? [v] : undefined);
/** A typed search, trimmed (undefined when blank). */
export const searchText = (v: string) => v.trim() || undefined;
/** A chosen id (undefined for "all"). */
export const chosenId = (v: string) => Number(v) || undefined;
