import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Empty, ErrorState, Loading } from './states';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  numeric?: boolean;
}

export interface DataTableProps<T> {
  columns: Column<T>[];
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  error?: unknown;
  retry?: () => void;
  /** What the empty table says, and what to do next. */
  empty: { title: string; hint?: string; action?: ReactNode };
  caption: string;
  rowClass?: (row: T) => string | undefined;
}

/** A table with its loading, error and empty states; the caption names it for screen readers. */
export function DataTable<T>({ columns, rows, rowKey, loading, error, retry, empty, caption, rowClass }: DataTableProps<T>) {
  if (loading) return <Loading />;
  if (error) return <ErrorState error={error} retry={retry} />;
  if (!rows?.length) return <Empty {...empty} />;
  return (
    // focusable and named: a keyboard can scroll a table wider than the screen (axe scrollable-region-focusable)
    <div className="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table className="data">
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} className={rowClass?.(r)}>
              {columns.map((c) => (
                <td key={c.key} className={c.numeric ? 'num' : undefined}>
                  {c.cell(r)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next over a paginated list (limit + offset, total when the API gives it). */
export function Pager({
  offset,
  limit,
  total,
  count,
  onChange,
}: {
  offset: number;
  limit: number;
  total?: number;
  count: number;
  onChange: (offset: number) => void;
}) {
  const { t } = useTranslation();
  const hasNext = total !== undefined ? offset + limit < total : count === limit;
  if (offset === 0 && !hasNext) return null;
  return (
    <nav className="pager" aria-label={t('common.pages')}>
      <span className="muted small">
        {total !== undefined
          ? t('common.rangeOf', { from: offset + 1, to: offset + count, total })
          : t('common.range', { from: offset + 1, to: offset + count })}
      </span>
      <button type="button" className="btn btn-small" disabled={offset === 0} onClick={() => onChange(Math.max(0, offset - limit))}>
        {t('common.previous')}
      </button>
      <button type="button" className="btn btn-small" disabled={!hasNext} onClick={() => onChange(offset + limit)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
