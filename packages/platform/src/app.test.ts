import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineEndpoint } from '@corridor/contracts';
import { createApp } from './app';
import { registerEndpoint } from './endpoint-routes';
import { AppError } from './errors';
import { createLogger } from './logger';
import { asUser, TEST_IDENTITY_SECRET, userWith } from './testing/identity';

const echo = defineEndpoint({
  id: 'test.echo',
  method: 'post',
  path: '/echo/{id}',
  service: 'ops-api',
  tags: ['t'],
  summary: 'echo',
  access: ['dispatcher'],
  request: { params: z.object({ id: z.coerce.number().int() }), body: z.object({ name: z.string().min(2), n: z.number().int().max(10) }) },
  responses: { 200: { description: 'ok', schema: z.object({ id: z.number(), name: z.string() }) } },
});
const boom = defineEndpoint({
  id: 'test.boom',
  method: 'get',
  path: '/boom',
  service: 'ops-api',
  tags: ['t'],
  summary: 'boom',
  access: 'public',
  responses: { 200: { description: 'ok', schema: z.object({ ok: z.boolean() }) } },
});

let readyOk = true;
const app = createApp({
  name: 'ops-api',
  logger: createLogger('test', 'silent'),
  identitySecret: TEST_IDENTITY_SECRET,
  readiness: {
    dep: async () => {
      if (!readyOk) throw new Error('dep down');
    },
  },
});
registerEndpoint(app, echo, async (req) => ({ id: req.params.id, name: req.body.name }));
registerEndpoint(app, boom, async () => {
  throw new AppError('INVALID_TRANSITION', 'not now', { current: 'a', allowed: ['b'] });
});
app.get('/crash', async () => {
  throw new Error('unexpected');
});
// what drizzle throws when PostgreSQL refuses a value (pg and PGlite put the SQLSTATE in `code`)
const dbError = (code: string) =>
  Object.assign(new Error('Failed query: select ...'), { cause: Object.assign(new Error('db says no'), { code }) });
app.get('/db/:code', async (req) => {
  throw dbError((req.params as { code: string }).code);
});
afterAll(() => app.close());

describe('createApp', () => {
  it('serves a valid request and echoes the request id', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo/7',
      headers: { ...(await asUser(userWith(['dispatcher']))), 'x-request-id': 'abc-123' },
      payload: { name: 'ok', n: 1 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ id: 7, name: 'ok' });
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('answers 400 in the one error shape, naming each wrong field', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo/7',
      headers: await asUser(userWith(['dispatcher'])),
      payload: { name: 'x', n: 99 },
    });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ error: { code: string; details: { path: string }[] } }>();
    expect(body.error.code).toBe('VALIDATION_FAILED');
    expect(body.error.details.map((d) => d.path).sort()).toEqual(['n', 'name']);
    // with zod's issue code and limits, for a client to word the problem in its user's language
    expect(body.error.details).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ in: 'body', path: 'name', code: 'too_small', minimum: 2, origin: 'string' }),
        expect.objectContaining({ in: 'body', path: 'n', code: 'too_big', maximum: 10, origin: 'number' }),
      ]),
    );
  });

  it('answers 401 without identity, 403 with a wrong role, before validating', async () => {
    expect((await app.inject({ method: 'POST', url: '/api/echo/7', payload: {} })).statusCode).toBe(401);
    const res = await app.inject({
      method: 'POST',
      url: '/api/echo/7',
      headers: await asUser(userWith(['company_user'], 101)),
      payload: {},
    });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const forged = await app.inject({ method: 'POST', url: '/api/echo/7', headers: { 'x-corridor-identity': 'not-a-token' }, payload: {} });
    expect(forged.statusCode).toBe(401);
  });

  it('maps AppError, unknown routes, garbage JSON and crashes to the error shape', async () => {
    const t = await app.inject({ method: 'GET', url: '/api/boom' });
    expect(t.statusCode).toBe(409);
    expect(t.json()).toEqual({ error: { code: 'INVALID_TRANSITION', message: 'not now', details: { current: 'a', allowed: ['b'] } } });
    expect((await app.inject({ method: 'GET', url: '/nope' })).json()).toMatchObject({ error: { code: 'NOT_FOUND' } });
    const garbage = await app.inject({
      method: 'POST',
      url: '/api/echo/7',
      headers: { ...(await asUser(userWith(['dispatcher']))), 'content-type': 'application/json' },
      payload: '{"name":',
    });
    expect(garbage.statusCode).toBe(400);
    const crash = await app.inject({ method: 'GET', url: '/crash' });
    expect(crash.statusCode).toBe(500);
    expect(crash.json()).toMatchObject({ error: { code: 'INTERNAL', message: 'Internal error' } });
  });

  it('refuses NUL in path, query, body values and keys (400 naming the field) before validation', async () => {
    const headers = await asUser(userWith(['dispatcher']));
    const cases: [string, string, unknown, string][] = [
      ['path', '/api/echo/7%00', { name: 'ok', n: 1 }, 'params.id'],
      ['query', '/api/echo/7?q=a%00', { name: 'ok', n: 1 }, 'querystring.q'],
      ['body value', '/api/echo/7', { name: 'o\u0000k', n: 1 }, 'body.name'],
      ['nested key', '/api/echo/7', { name: 'ok', n: 1, attributes: { list: [{ 'k\u0000': 1 }] } }, 'body.attributes.list.0.k\u0000'],
    ];
    for (const [what, url, payload, where] of cases) {
      const res = await app.inject({ method: 'POST', url, headers, payload: payload as object });
      expect(res.statusCode, what).toBe(400);
      expect(res.json<{ error: { code: string; message: string } }>().error, what).toMatchObject({
        code: 'VALIDATION_FAILED',
        message: expect.stringContaining(where),
      });
    }
    // an escaped backslash followed by u0000 is six ordinary characters
    const escaped = await app.inject({
      method: 'POST',
      url: '/api/echo/7',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: '{"name":"a\\\\u0000","n":1}',
    });
    expect(escaped.statusCode, escaped.body).toBe(200);
    expect(escaped.json()).toEqual({ id: 7, name: 'a\\u0000' });
  });

  it('refuses a body nested deeper than 64 levels and a number beyond a double, naming where', async () => {
    const headers = { ...(await asUser(userWith(['dispatcher']))), 'content-type': 'application/json' };
    const deep = '{"name":"ok","n":1,"attributes":' + '['.repeat(10_000) + ']'.repeat(10_000) + '}';
    const d = await app.inject({ method: 'POST', url: '/api/echo/7', headers, payload: deep });
    expect(d.statusCode, d.body).toBe(400);
    expect(d.json<{ error: { message: string } }>().error.message).toMatch(/^body\.attributes\.0\.0\.0.*nested more than 64 levels/);
    const inf = await app.inject({ method: 'POST', url: '/api/echo/7', headers, payload: '{"name":"ok","n":1e400}' });
    expect(inf.statusCode, inf.body).toBe(400);
    expect(inf.json<{ error: { message: string } }>().error.message).toContain('body.n: must be a number within range');
  });

  it('answers 400, not 500, when the database refuses a value of the request (out of range, NUL, malformed)', async () => {
    for (const code of ['22003', '22021', '22P05', '22P02']) {
      const res = await app.inject({ method: 'GET', url: `/db/${code}` });
      expect(res.statusCode, code).toBe(400);
      expect(res.json()).toMatchObject({ error: { code: 'VALIDATION_FAILED' } });
    }
    // any other database failure stays a server error
    expect((await app.inject({ method: 'GET', url: '/db/40P01' })).statusCode).toBe(500);
    expect((await app.inject({ method: 'GET', url: '/db/23505' })).statusCode).toBe(500);
  });

  it('reports health, readiness per dependency and metrics', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/readyz' })).json()).toMatchObject({ status: 'ready', checks: { dep: 'ok' } });
    readyOk = false;
    const nr = await app.inject({ method: 'GET', url: '/readyz' });
    expect(nr.statusCode).toBe(503);
    expect(nr.json()).toMatchObject({ checks: { dep: 'dep down' } });
    readyOk = true;
    const m = await app.inject({ method: 'GET', url: '/metrics' });
    expect(m.body).toContain('http_request_duration_seconds');
  });

  it('records its routes for the contract test', () => {
    expect(app.routeTable).toEqual(
      expect.arrayContaining([
        { method: 'post', url: '/api/echo/:id' },
        { method: 'get', url: '/api/boom' },
      ]),
    );
  });
});
