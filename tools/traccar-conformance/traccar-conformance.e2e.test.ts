import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { primaryKind } from '@corridor/platform/testing/test-adapters';
import { ADMIN, ADMIN_AUTH, eventually, startTestStack, type TestStack } from '../stack/test-stack';
import { conformancePlan, type StepAnswer, type StepRequest } from './conformance-plan';
import { generate, type Fixtures } from './generated-values';
import { loadTraccarDocument, schemaValidators, type TraccarOperation } from './traccar-document';

/**
 * Traccar's own API description (6.14.5) against Corridor: every operation it lists is called
 * through the gateway of one whole stack (the real parts in CI), with valid inputs generated from
 * its schemas, and every answer is checked against what the document says of it: a documented
 * status, no server error, the documented media type, and a JSON body that its schema validates.
 * Position must carry Traccar's fields only (the issue asks for Traccar's shape of it).
 * A call must succeed (2xx), except the few a step names, where Corridor answers as a Traccar
 * server without the feature would (listed in the README's Traccar section).
 */

const document = loadTraccarDocument();
// Position closed (the issue: no field beyond Traccar's); Event open: Corridor's events add journeyId, latitude, longitude and address, which the console reads
const validator = schemaValidators(document, ['Position']);
const byId = new Map(document.operations.map((o) => [o.operationId, o]));

/** The fixture a path's `{id}` names, from the collection it is under. */
const idFixture: [RegExp, string][] = [
  [/^\/devices/, 'deviceId'],
  [/^\/groups/, 'groupId'],
  [/^\/geofences/, 'geofenceId'],
  [/^\/commands/, 'commandId'],
  [/^\/attributes\/computed/, 'attributeId'],
  [/^\/drivers/, 'driverId'],
  [/^\/maintenance/, 'maintenanceId'],
  [/^\/calendars/, 'calendarId'],
  [/^\/notifications/, 'notificationId'],
  [/^\/orders/, 'orderId'],
  [/^\/users/, 'userId'],
  [/^\/session/, 'userId'],
  [/^\/events/, 'eventId'],
  [/^\/positions/, 'positionId'],
];

interface Finding {
  op: string;
  call: string;
  problem: string;
}

describe("Traccar's API description validates Corridor's answers", { timeout: 600_000 }, () => {
  let stack: TestStack;
  let cookie = '';
  const resetTokens = new Map<string, string>();
  const fx: Fixtures = {};
  const findings: Finding[] = [];
  const covered = new Set<string>();

  beforeAll(async () => {
    stack = await startTestStack(await primaryKind(), {
      gateway: {
        notifier: {
          passwordReset: async (n) => void resetTokens.set(n.email, n.token),
          emailChanged: async () => undefined,
        },
      },
    });
  }, 180_000);
  afterAll(async () => {
    await stack?.close();
  });

  async function feedPositions(f: Fixtures): Promise<void> {
    const device = (await stack.call(ADMIN_AUTH, 'GET', `/api/devices/${f.deviceId}`)).json<{ uniqueId: string }>();
    await eventually('ingest to know the device', async () => (await stack.ingest.registry.lookup(device.uniqueId)) !== undefined);
    const t0 = Math.floor(Date.now() / 1000) - 600;
    f.from = new Date((t0 - 60) * 1000).toISOString();
    f.to = new Date(Date.now() + 120_000).toISOString();
    // parked with the engine off, a drive east with an SOS alarm on the way, parked again
    const fixes = [
      [0, -1.2921, 36.8219, 0, false],
      [60, -1.2921, 36.8219, 0, true],
      [120, -1.2921, 36.83, 25, true],
      [180, -1.2921, 36.842, 30, true],
      [240, -1.2921, 36.854, 28, true],
      [300, -1.2921, 36.86, 0, true],
      [420, -1.2921, 36.86, 0, false],
      [540, -1.2921, 36.86, 0, false],
    ] as const;
    for (const [dt, lat, lon, speed, ignition] of fixes) {
      const alarm = dt === 180 ? '&alarm=sos' : '';
      const res = await stack.ingest.osmand.inject({
        method: 'GET',
        url: `/?id=${device.uniqueId}&lat=${lat}&lon=${lon}&timestamp=${t0 + dt}&speed=${speed}&ignition=${ignition}&hdop=0.9&batt=88${alarm}`,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const q = new URLSearchParams({ deviceId: String(f.deviceId), from: f.from, to: f.to });
    await eventually('the fixes stored and their events recorded', async () => {
      const route = (await stack.call(ADMIN_AUTH, 'GET', `/api/reports/route?${q}`)).json<unknown[]>();
      const events = (await stack.call(ADMIN_AUTH, 'GET', `/api/reports/events?${q}`)).json<{ type: string }[]>();
      return route.length === fixes.length && events.some((e) => e.type === 'alarm');
    });
  }

  /** The request a step makes: the path with its parameters, the query, the body and the headers. */
  function requestOf(op: TraccarOperation, step: StepRequest) {
    let url = op.path;
    for (const p of op.parameters.filter((x) => x.in === 'path')) {
      const value = step.params?.[p.name] ?? (p.name === 'id' ? fx[idFixture.find(([re]) => re.test(op.path))?.[1] ?? ''] : undefined);
      if (value === undefined) throw new Error(`${op.operationId}: no value for the path parameter ${p.name}`);
      url = url.replace(`{${p.name}}`, encodeURIComponent(String(value)));
    }
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(step.query ?? {})) for (const x of Array.isArray(v) ? v : [v]) query.append(k, String(x));
    const missing = op.parameters.filter((p) => p.in === 'query' && p.required && !query.has(p.name));
    if (missing.length)
      throw new Error(`${op.operationId}: no value for the required query parameters ${missing.map((p) => p.name).join(', ')}`);
    const headers: Record<string, string> = {};
    if ((step.auth ?? 'admin') === 'admin') headers.authorization = ADMIN_AUTH;
    if (step.auth === 'cookie') headers.cookie = cookie;
    let payload: string | Buffer | undefined;
    if (step.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      payload = new URLSearchParams(step.form).toString();
    } else if (step.raw) {
      headers['content-type'] = step.raw.type;
      payload = step.raw.data;
    } else if (step.json !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(step.json);
    } else if (op.requestBody?.mediaType === 'application/json') {
      const id = url.match(/\/(\d+)$/)?.[1];
      const given = { ...(op.method === 'put' && id ? { id: Number(id) } : {}), ...step.body };
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(generate(op.requestBody.schema, fx, op.requestBody.component, given));
    }
    return { method: op.method.toUpperCase() as 'GET', url: `/api${url}${query.size ? `?${query}` : ''}`, headers, payload };
  }

  /** What is wrong with an answer, by the document: none when it conforms. */
  function problemsOf(op: TraccarOperation, res: StepAnswer, expected: number | undefined): string[] {
    const problems: string[] = [];
    if (res.statusCode >= 500) problems.push(`server error ${res.statusCode}: ${res.body.slice(0, 300)}`);
    if (expected !== undefined ? res.statusCode !== expected : res.statusCode >= 300)
      problems.push(`answered ${res.statusCode}, expected ${expected ?? 'a success'}: ${res.body.slice(0, 300)}`);
    const documented = op.responses[String(res.statusCode)] ?? op.responses.default;
    if (!documented) {
      if (expected === undefined) problems.push(`status ${res.statusCode} is not documented (${Object.keys(op.responses).join(', ')})`);
      return problems;
    }
    const types = Object.keys(documented);
    if (!types.length || res.statusCode === 204) return problems;
    const type = String(res.headers['content-type'] ?? '')
      .split(';')[0]!
      .trim();
    const media = types.find((t) => t === type || (t.endsWith('/*') && type.startsWith(t.slice(0, -1))));
    if (!media) return [...problems, `content-type ${type || '(none)'}, documented ${types.join(' | ')}`];
    const schema = documented[media];
    if (media === 'application/json' && schema) {
      let body: unknown;
      try {
        body = JSON.parse(res.body);
      } catch {
        return [...problems, 'the body is not JSON'];
      }
      problems.push(
        ...validator(schema)(body)
          .slice(0, 8)
          .map((e) => `schema: ${e}`),
      );
    }
    return problems;
  }

  it('calls every operation of the document with valid inputs: no server error, no schema violation', async () => {
    const plan = conformancePlan({
      feedPositions,
      admin: ADMIN,
      keepCookie: (res) => {
        const set = res.headers['set-cookie'];
        cookie = (Array.isArray(set) ? set : set ? [String(set)] : []).map((c) => c.split(';')[0]).join('; ');
      },
      resetToken: (email) => eventually(`the reset mail to ${email}`, () => resetTokens.get(email)),
    });
    const planned = new Set(plan.map((s) => s.op));
    expect(
      [...byId.keys()].filter((id) => !planned.has(id)),
      'operations of the document the plan does not call',
    ).toEqual([]);
    expect(
      [...planned].filter((id) => !byId.has(id)),
      'steps naming no operation of the document',
    ).toEqual([]);

    for (const step of plan) {
      const op = byId.get(step.op)!;
      let call = step.op;
      try {
        const req = requestOf(op, (await step.request?.(fx)) ?? {});
        call = `${req.method} ${req.url}`;
        const res = await stack.gateway.app.inject(req);
        const answer: StepAnswer = { statusCode: res.statusCode, headers: res.headers, body: res.body, rawPayload: res.rawPayload };
        const problems = problemsOf(op, answer, step.expect);
        for (const problem of problems) findings.push({ op: step.op, call, problem });
        if (!problems.length) {
          covered.add(step.op);
          await step.after?.(answer, fx);
        }
      } catch (err) {
        findings.push({ op: step.op, call, problem: `the step failed: ${(err as Error).message}` });
      }
    }
    console.info(`Traccar ${document.version} conformance: ${covered.size} of ${byId.size} operations answered as documented`);
    expect(findings.map((f) => `${f.op} (${f.call}): ${f.problem}`)).toEqual([]);
    expect(covered.size).toBe(byId.size);
  });
});
