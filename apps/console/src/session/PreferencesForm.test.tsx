import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { User } from '@corridor/contracts/users';
import { PreferencesForm } from './PreferencesForm';
import { UserContext } from './user-context';

/**
 * The preferences form against a stand-in for the API (fetch answered here: component tests run
 * without the services; the gateway's users.test.ts proves the API keeps these attributes). The
 * answers vary: saved, refused with a field's problem, the server down.
 */
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const user = {
  id: 12,
  name: 'Neema',
  login: null,
  email: 'neema@corridor.test',
  phone: null,
  readonly: false,
  administrator: false,
  map: null,
  latitude: 0,
  longitude: 0,
  zoom: 0,
  coordinateFormat: null,
  disabled: false,
  expirationTime: null,
  deviceLimit: -1,
  userLimit: 0,
  deviceReadonly: false,
  limitCommands: false,
  disableReports: false,
  fixedEmail: false,
  poiLayer: null,
  totpEnabled: false,
  roles: ['association_analyst'],
  companyId: null,
  attributes: { favourite: 'Malaba', speedUnit: 'kn' },
} satisfies User;

function serve(answer: (body: Record<string, unknown>) => Response): { sent: Record<string, unknown>[] } {
  const sent: Record<string, unknown>[] = [];
  vi.stubGlobal('fetch', async (url: string, init?: RequestInit) => {
    if (url === '/api/users/12' && init?.method === 'PUT') {
      const body = JSON.parse(init.body as string) as Record<string, unknown>;
      sent.push(body);
      return answer(body);
    }
    return json(404, { error: { code: 'NOT_FOUND', message: url } });
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <UserContext.Provider value={user}>
        <PreferencesForm />
      </UserContext.Provider>
    </QueryClientProvider>,
  );
  return { sent };
}
const select = (name: string) => screen.getByRole<HTMLSelectElement>('combobox', { name });

afterEach(() => vi.unstubAllGlobals());

describe('preferences form', () => {
  it("shows the user's preferences and saves them in their attributes, keeping the others", async () => {
    const { sent } = serve((body) => json(200, { ...user, ...body }));
    expect(select('Speed').value).toBe('kn');
    fireEvent.change(select('Speed'), { target: { value: 'mph' } });
    fireEvent.change(select('Coordinates'), { target: { value: 'dms' } });
    fireEvent.change(select('Time zone'), { target: { value: 'Africa/Dar_es_Salaam' } });
    fireEvent.change(select('Appearance'), { target: { value: 'dark' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(sent).toHaveLength(1));
    await screen.findByText('Preferences saved.');
    expect(sent[0]).toMatchObject({ email: user.email, roles: ['association_analyst'], coordinateFormat: 'dms' });
    expect(sent[0]!.attributes).toEqual({
      favourite: 'Malaba',
      speedUnit: 'mph',
      distanceUnit: 'km',
      timezone: 'Africa/Dar_es_Salaam',
      darkMode: true,
    });
  });

  it("puts a refused field's problem under that field, worded, once", async () => {
    serve(() =>
      json(400, {
        error: {
          code: 'VALIDATION_FAILED',
          message: 'body.attributes.timezone: an IANA time zone such as Africa/Nairobi',
          details: [{ in: 'body', path: 'attributes.timezone', message: 'an IANA time zone such as Africa/Nairobi', code: 'custom' }],
        },
      }),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const zone = select('Time zone');
    await waitFor(() => expect(zone.getAttribute('aria-invalid')).toBe('true'));
    const problem = document.getElementById(zone.getAttribute('aria-describedby')!.split(' ').at(-1)!);
    expect(problem?.textContent).toBe('This value is not valid.');
    expect(screen.queryByText(/body\.|IANA/)).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says a failure of the server in one sentence', async () => {
    serve(() => json(503, { error: { code: 'UNAVAILABLE', message: 'postgres is down' } }));
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('The server is busy or a part of it is down. Try again in a moment.');
    expect(screen.queryByText('Preferences saved.')).toBeNull();
  });
});
