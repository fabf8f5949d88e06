import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ChoiceFilter, SearchFilter } from './Filters';
import { PagedTable, type PageQuery } from './PagedTable';
import { usePagedFilters } from './usePagedFilters';

type Row = { id: number; name: string };
const rows = (n: number, from = 0): Row[] => Array.from({ length: n }, (_, i) => ({ id: from + i, name: `Row ${from + i}` }));

/** A list screen as the console's are: filters over a paged table of what the "server" answers. */
function Screen({ answer }: { answer: (q: { offset: number; limit: number; status: string; text: string }) => PageQuery<Row> }) {
  const list = usePagedFilters({ status: '' as 'open' | 'closed' | '', text: '' }, 2);
  const q = answer({ offset: list.offset, limit: list.limit, ...list.filters });
  return (
    <>
      <ChoiceFilter
        label="Status"
        value={list.filters.status}
        options={['open', 'closed'] as const}
        optionLabel={(o) => o.toUpperCase()}
        onChange={(v) => list.set('status', v)}
      />
      <SearchFilter label="Name" value={list.filters.text} onChange={(v) => list.set('text', v)} />
      <output data-testid="asked">{`${list.offset}/${list.filters.status}/${list.filters.text}`}</output>
      <PagedTable
        caption="Things"
        columns={[{ key: 'name', header: 'Name', cell: (r) => r.name }]}
        query={q}
        list={list}
        rowKey={(r) => r.id}
        noMatch="Nothing matches"
        empty={{ title: 'Nothing yet', hint: 'Add one' }}
      />
    </>
  );
}

const page = (items: Row[], total?: number): PageQuery<Row> => ({
  data: total === undefined ? items : { items, total },
  isPending: false,
  error: null,
  refetch: () => undefined,
});

describe('paged list with filters', () => {
  it('pages forward and back, and a filter change goes back to the first page', async () => {
    const user = userEvent.setup();
    render(<Screen answer={({ offset }) => page(rows(2, offset), 5)} />);
    expect(screen.getByText('1–2 of 5')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByTestId('asked').textContent).toBe('2//');
    expect(screen.getByText('Row 2')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Status'), 'CLOSED');
    expect(screen.getByTestId('asked').textContent).toBe('0/closed/');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.type(screen.getByLabelText('Name'), 'x');
    expect(screen.getByTestId('asked').textContent).toBe('0/closed/x');
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('says "nothing matches" under a filter and the list\'s own empty state without one', async () => {
    const user = userEvent.setup();
    render(<Screen answer={() => page([], 0)} />);
    expect(screen.getByText('Nothing yet')).toBeTruthy();
    expect(screen.getByText('Add one')).toBeTruthy();
    await user.type(screen.getByLabelText('Name'), 'zzz');
    expect(screen.getByText('Nothing matches')).toBeTruthy();
    await user.clear(screen.getByLabelText('Name'));
    expect(screen.getByText('Nothing yet')).toBeTruthy();
  });

  it('pages a bare array (no total) while a full page came back', async () => {
    const user = userEvent.setup();
    render(<Screen answer={({ offset }) => page(offset === 0 ? rows(2) : rows(1, 2))} />);
    expect(screen.getByText('1–2')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('3–3')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Next' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the error with a retry', async () => {
    let retried = 0;
    const user = userEvent.setup();
    render(<Screen answer={() => ({ data: undefined, isPending: false, error: new Error('down'), refetch: () => retried++ })} />);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retried).toBe(1);
  });
});
