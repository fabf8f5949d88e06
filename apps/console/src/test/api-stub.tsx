import type { ReactNode } from 'react';
import { vi } from 'vitest';
import { render } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import type { z } from 'zod';
import { Device } from '@corridor/contracts/devices';
import { User } from '@corridor/contracts/users';
import { UserContext } from '../session/user-context';

/**
 * A stand-in for the API in component tests (they run without the services): each request is
 * answered by the first handler whose method and path match, else 404 in the API's error shape.
 * The browser tests cover the real stack; here the server's answers are varied at will.
 */
export type Handler = (req: { method: string; url: URL; body: unknown }) => Response | Promise<Response> | undefined;

export const json = (status: number, body: unknown): Response =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
export const text = (status: number, body: string): Response =>
  new Response(body, { status, headers: { 'content-type': 'text/plain; charset=utf-8' } });
export const apiError = (status: number, code: string, message = code, details?: unknown): Response =>
  json(status, { error: { code, message, ...(details ? { details } : {}) } });

export interface Served {
  /** Every request, as 'METHOD /path?query'. */
  asked: string[];
  /** The JSON bodies sent, by 'METHOD /path'. */
  sent: Map<string, unknown[]>;
}

export function serveApi(...handlers: Handler[]): Served {
  const asked: string[] = [];
  const sent = new Map<string, unknown[]>();
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const url = new URL(input, 'http://console.test');
    const method = (init?.method ?? 'GET').toUpperCase();
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    asked.push(`${method} ${url.pathname}${url.search}`);
    if (body !== undefined) sent.set(`${method} ${url.pathname}`, [...(sent.get(`${method} ${url.pathname}`) ?? []), body]);
    if (url.pathname === '/api/server')
      return json(200, {
        id: 1,
        version: 'test',
        registration: false,
        readonly: false,
        latitude: -1.29,
        longitude: 36.82,
        zoom: 6,
        openIdEnabled: false,
        openIdForce: false,
        attributes: {},
      });
    for (const h of handlers) {
      const res = await h({ method, url, body });
      if (res) return res;
    }
    return apiError(404, 'NOT_FOUND', `${method} ${url.pathname}`);
  });
  return { asked, sent };
}

/** A GET handler for one path (exact), answering `body` (a function of the query) with 200. */
export const get =
  (path: string, body: unknown | ((q: URLSearchParams) => unknown)): Handler =>
  ({ method, url }) =>
    method === 'GET' && url.pathname === path
      ? json(200, typeof body === 'function' ? (body as (q: URLSearchParams) => unknown)(url.searchParams) : body)
      : undefined;

export const DISPATCHER = {
  id: 12,
  name: 'Neema Dispatcher',
  email: 'neema@corridor.test',
  roles: ['dispatcher'],
  companyId: null,
  disabled: false,
  readonly: false,
  attributes: {},
} as unknown as User;

/** Renders a screen at `path` (matched by `route`) for `user`, with a fresh query cache. */
export function renderAt(element: ReactNode, opts: { path: string; route?: string; user?: User }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const view = render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[opts.path]}>
        <UserContext.Provider value={opts.user ?? DISPATCHER}>
          <Routes>
            <Route path={opts.route ?? opts.path.split('?')[0]} element={element} />
          </Routes>
        </UserContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, client };
}

/** null for every field of an object schema that may be null (fixtures keep up with fields the contract adds). */
const nullsOf = (schema: z.ZodObject): Record<string, null> =>
  Object.fromEntries(
    Object.entries(schema.shape)
      .filter(([, f]) => (f as z.ZodType).safeParse(null).success)
      .map(([k]) => [k, null]),
  );

/** A device as GET /devices gives it (every field of the contract). */
export const deviceFixture = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  ...nullsOf(Device),
  id,
  name,
  uniqueId: `35700000000${String(id).padStart(4, '0')}`,
  status: 'online',
  disabled: false,
  companyId: 101,
  attributes: {},
  ...extra,
});

/** A user as GET /users gives it (every field of the contract). */
export const userFixture = (id: number, name: string, extra: Partial<User> = {}): User =>
  ({
    ...nullsOf(User),
    id,
    name,
    email: `${name.toLowerCase().replace(/\W+/g, '.')}@corridor.test`,
    readonly: false,
    administrator: (extra.roles ?? []).includes('admin'),
    latitude: 0,
    longitude: 0,
    zoom: 0,
    disabled: false,
    deviceLimit: -1,
    userLimit: 0,
    deviceReadonly: false,
    limitCommands: false,
    disableReports: false,
    fixedEmail: false,
    roles: [],
    totpEnabled: false,
    companyId: null,
    attributes: {},
    ...extra,
  }) as User;
