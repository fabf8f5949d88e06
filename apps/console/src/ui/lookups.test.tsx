import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useCompanies } from './lookups';

/**
 * The console's names for ids, against a stand-in for the API (fetch answered here: component tests
 * run without the services; the browser test cargo-and-lookups covers the real ones).
 */
const company = (id: number, name: string) => ({
  id,
  name,
  country: 'KE',
  kind: 'transporter',
  registrationNumber: null,
  taxPin: null,
  createdAt: '2026-01-01T00:00:00.000Z',
});
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const error = (status: number, code: string) => json(status, { error: { code, message: code } });

function Names({ ids }: { ids: number[] }) {
  const companies = useCompanies();
  return (
    <ul>
      {ids.map((id) => (
        <li key={id} data-testid={`c${id}`}>
          {companies.name(id)}
        </li>
      ))}
    </ul>
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('company names by id', () => {
  it('names an id from the list, else reads that one company (once), and says "unknown" only on 404 or 403', async () => {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      if (url.startsWith('/api/companies?'))
        return json(200, { items: [company(101, 'Mombasa Haulage')], total: 1, limit: 1000, offset: 0 });
      if (url === '/api/companies/2001') return json(200, company(2001, 'Far Page Transporters'));
      if (url === '/api/companies/404') return error(404, 'NOT_FOUND');
      if (url === '/api/companies/403') return error(403, 'FORBIDDEN');
      return error(503, 'UNAVAILABLE');
    });
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const ids = [101, 2001, 404, 403, 503];
    const view = render(
      <QueryClientProvider client={client}>
        <Names ids={ids} />
      </QueryClientProvider>,
    );
    expect((await screen.findByText('Mombasa Haulage')).dataset.testid).toBe('c101');
    expect((await screen.findByText('Far Page Transporters')).dataset.testid).toBe('c2001');
    expect((await screen.findByText('unknown company (id 404)')).dataset.testid).toBe('c404');
    expect((await screen.findByText('unknown company (id 403)')).dataset.testid).toBe('c403');
    expect((await screen.findByText('company 503 (could not be loaded)')).dataset.testid).toBe('c503');

    // a second screen naming the same ids reads nothing again: the records are in the query cache
    view.rerender(
      <QueryClientProvider client={client}>
        <Names ids={[...ids].reverse()} />
      </QueryClientProvider>,
    );
    expect(screen.getByTestId('c2001').textContent).toBe('Far Page Transporters');
    expect(asked.filter((u) => u.startsWith('/api/companies/')).sort()).toEqual([
      '/api/companies/2001',
      '/api/companies/403',
      '/api/companies/404',
      '/api/companies/503',
    ]);
    expect(asked.filter((u) => u.startsWith('/api/companies?'))).toHaveLength(1);
  });
});
