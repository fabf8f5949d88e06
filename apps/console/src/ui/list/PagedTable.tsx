import { useTranslation } from 'react-i18next';
import { DataTable, Pager, type DataTableProps } from '../DataTable';
import type { PagedFilters } from './usePagedFilters';

/** A query answering one page of a list ({ items, total }, or a bare array where the API gives no total), as TanStack Query gives it. */
export interface PageQuery<T> {
  data?: { items: T[]; total?: number } | T[];
  isPending: boolean;
  error: unknown;
  refetch: () => unknown;
}

/**
 * One page of a list with its loading, error and empty states, then previous / next. When a filter
 * is set and nothing matches it says so (`noMatch`) and suggests clearing the filters, rather than
 * the list's own empty state.
 */
export function PagedTable<T>({
  query,
  list,
  noMatch,
  empty,
  ...table
}: Omit<DataTableProps<T>, 'rows' | 'loading' | 'error' | 'retry'> & { query: PageQuery<T>; list: PagedFilters; noMatch?: string }) {
  const { t } = useTranslation();
  const page = Array.isArray(query.data) ? { items: query.data, total: undefined } : query.data;
  return (
    <>
      <DataTable
        {...table}
        rows={page?.items}
        loading={query.isPending}
        error={query.error}
        retry={() => void query.refetch()}
        empty={list.filtered && noMatch ? { title: noMatch, hint: t('common.clearFilters') } : empty}
      />
      <Pager offset={list.offset} limit={list.limit} total={page?.total} count={page?.items.length ?? 0} onChange={list.setOffset} />
    </>
  );
}
