import { afterEach, describe, expect, it, vi } from 'vitest';
import { journeysEndpoints } from '@corridor/contracts/journeys';
import { call, pathOf, queryString } from './client';
import { endpoint } from './endpoint';
import { ApiError } from './errors';

const flagged = endpoint(journeysEndpoints, 'journeys.flagged');
const cancel = endpoint(journeysEndpoints, 'journeys.cancel');

function respond(status: number, body: unknown, headers: Record<string, string> = {}) {
  const fetchMock = vi.fn(
    async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('the typed API client', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('builds paths and repeats array query values', () => {
    expect(pathOf(cancel, { id: 7 })).toBe('/api/journey/7/cancel');
    expect(() => pathOf(cancel, {})).toThrow(/id/);
    expect(queryString({ flagType: ['offCorridor', 'overspeed'], limit: 10, from: undefined, q: '' })).toBe(
      '?flagType=offCorridor&flagType=overspeed&limit=10',
    );
  });

  it('sends the CSRF marker and JSON, and returns the parsed body', async () => {
    const journey = {
      id: 7,
      deviceId: 1,
      truckPlate: null,
      companyId: 101,
      routeId: 1,
      routeName: 'Northern',
      shipmentRef: null,
      cargoRef: null,
      plannedDeparture: null,
      plannedArrival: null,
      state: 'cancelled',
      actualDeparture: null,
      actualArrival: null,
      origin: null,
      destination: null,
      countries: ['KE'],
      flagged: false,
      openFlags: [],
      cancelledAt: '2026-01-01T00:00:00.000Z',
      cancelReason: 'x',
      createdBy: 1,
      attributes: {},
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    const f = respond(200, journey);
    const got = await call(cancel, { params: { id: 7 }, body: { reason: 'x' } });
    expect(got.state).toBe('cancelled');
    const [url, init] = f.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/journey/7/cancel');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['x-requested-with']).toBe('corridor-console');
    expect(init.body).toBe('{"reason":"x"}');
  });

  it('turns the standard error shape into an ApiError with the allowed next states', async () => {
    respond(409, { error: { code: 'INVALID_TRANSITION', message: 'not from completed', details: { current: 'completed', allowed: [] } } });
    const err = await call(cancel, { params: { id: 7 } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status: 409, code: 'INVALID_TRANSITION', message: 'not from completed' });
  });

  it('says a TOTP code is needed when the sign-in answer asks for one', async () => {
    respond(401, { error: { code: 'UNAUTHENTICATED', message: 'code required' } }, { 'www-authenticate': 'TOTP' });
    const err = (await call(flagged).catch((e: unknown) => e)) as ApiError;
    expect(err.authenticate).toBe('TOTP');
  });

  it('fails loudly when a response drifts from packages/contracts (checked in development)', async () => {
    respond(200, [{ id: 'not-a-number' }]);
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const err = (await call(flagged).catch((e: unknown) => e)) as ApiError;
    expect(err.code).toBe('CONTRACT_DRIFT');
    expect(logged).toHaveBeenCalledOnce();
  });
});
