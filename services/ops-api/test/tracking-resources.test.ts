import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  calendarsEndpoints,
  commandsEndpoints,
  computedAttributesEndpoints,
  configurationsEndpoints,
  deviceModelsEndpoints,
  driversEndpoints,
  groupsEndpoints,
  maintenanceEndpoints,
  notificationRulesEndpoints,
  ordersEndpoints,
  type Device,
  type EndpointDef,
} from '@corridor/contracts';
import { testUsers, userWith } from '@corridor/platform/testing/identity';
import { audit, type OpsAuditEntity } from '../src/audit/audit';
import { dispatcherOf, startHarness, type Harness } from './tracking-harness';
import { expect400, expectError } from './tracking-expect';

/**
 * CRUD of every table-backed tracking resource, table-driven: create, read, keyword search, replace,
 * delete (then 404), validation (400 naming the field), company scoping and the audit trail.
 */
const ICS = Buffer.from(
  'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//corridor//test//EN\r\nBEGIN:VEVENT\r\nUID:shift@corridor\r\nDTSTART:20260105T050000Z\r\n' +
    'DTEND:20260105T150000Z\r\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR\r\nSUMMARY:Day shift\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n',
).toString('base64');

let h: Harness;
let deviceA: Device; // company 101
let deviceB: Device; // company 202
beforeAll(async () => {
  h = await startHarness();
  const mk = async (uniqueId: string, companyId: number) => {
    const res = await h.call(testUsers.admin, 'POST', '/api/devices', { name: uniqueId, uniqueId, companyId });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Device>();
  };
  deviceA = await mk('356307042441013', 101);
  deviceB = await mk('356307042441014', 202);
});
afterAll(async () => h?.close());

interface Case {
  name: string;
  endpoints: readonly EndpointDef[];
  /** A valid body (without companyId); `n` makes unique values. */
  valid: (n: number) => Record<string, unknown>;
  /** Fields a replace changes, and the text a keyword search finds. */
  change: Record<string, unknown>;
  keyword: (n: number) => string;
  invalid: { body: (n: number) => Record<string, unknown>; field: string }[];
  /** A body naming an id that does not exist: 404 with this message, as another company's would. */
  unknownRef?: { body: () => Record<string, unknown>; message: string };
  /** Company users write their own entries (false: platform-wide, admin only). */
  scoped: boolean;
  /** Entries with no company are visible to company users. */
  shared?: boolean;
  conflict?: { body: (n: number) => Record<string, unknown>; field: string };
}

const cases: Case[] = [
  {
    name: 'groups',
    endpoints: groupsEndpoints,
    scoped: true,
    valid: (n) => ({ name: `Mombasa fleet ${n}` }),
    change: { name: 'Nairobi fleet' },
    keyword: (n) => `fleet ${n}`,
    invalid: [{ body: () => ({ name: '' }), field: 'name' }],
    unknownRef: { body: () => ({ name: 'x', groupId: 999999 }), message: 'Group 999999 not found' },
  },
  {
    name: 'drivers',
    endpoints: driversEndpoints,
    scoped: true,
    valid: (n) => ({ name: `Juma Otieno ${n}`, uniqueId: `RFID-${n}` }),
    change: { name: 'Amina Mwakilema' },
    keyword: (n) => `RFID-${n}`,
    invalid: [{ body: () => ({ name: 'x', uniqueId: 'bad id!' }), field: 'uniqueId' }],
    conflict: { body: (n) => ({ name: 'Other', uniqueId: `RFID-${n}` }), field: 'uniqueId' },
  },
  {
    name: 'calendars',
    endpoints: calendarsEndpoints,
    scoped: true,
    shared: true,
    valid: (n) => ({ name: `Day shift ${n}`, data: ICS }),
    change: { name: 'Night shift' },
    keyword: (n) => `shift ${n}`,
    invalid: [
      { body: () => ({ name: 'x', data: Buffer.from('BEGIN:VCARD\r\nEND:VCARD\r\n').toString('base64') }), field: 'data' },
      { body: () => ({ name: 'x', data: Buffer.from('not a calendar at all').toString('base64') }), field: 'data' },
      { body: () => ({ name: 'x', data: '***' }), field: 'data' },
    ],
  },
  {
    name: 'orders',
    endpoints: ordersEndpoints,
    scoped: true,
    valid: (n) => ({ uniqueId: `PO-${n}`, description: 'Cement, 30 t', fromAddress: 'Bamburi, Mombasa', toAddress: 'Kampala' }),
    change: { toAddress: 'Kigali' },
    keyword: (n) => `PO-${n}`,
    invalid: [{ body: () => ({ uniqueId: '' }), field: 'uniqueId' }],
    conflict: { body: (n) => ({ uniqueId: `PO-${n}` }), field: 'uniqueId' },
  },
  {
    name: 'device models',
    endpoints: deviceModelsEndpoints,
    scoped: false,
    valid: (n) => ({ manufacturer: 'Concox', model: `GT06N-${n}`, protocol: 'gt06', port: 5023 }),
    change: { port: 5024 },
    keyword: (n) => `GT06N-${n}`,
    invalid: [{ body: () => ({ manufacturer: 'Concox', model: 'X', protocol: 'gt06', port: 70000 }), field: 'port' }],
    conflict: { body: (n) => ({ manufacturer: 'Concox', model: `GT06N-${n}`, protocol: 'gt06', port: 5023 }), field: 'model' },
  },
  {
    name: 'configurations',
    endpoints: configurationsEndpoints,
    scoped: true,
    shared: true,
    valid: (n) => ({ name: `Highway reporting ${n}`, values: { interval: 30, apn: 'safaricom' } }),
    change: { values: { interval: 60 } },
    keyword: (n) => `reporting ${n}`,
    invalid: [],
    unknownRef: { body: () => ({ name: 'x', deviceModelId: 999999 }), message: 'Device model 999999 not found' },
  },
  {
    name: 'maintenance',
    endpoints: maintenanceEndpoints.slice(0, 5),
    scoped: true,
    shared: true,
    valid: (n) => ({ name: `Oil change ${n}`, type: 'totalDistance', start: 10000000, period: 10000000 }),
    change: { period: 15000000 },
    keyword: (n) => `Oil change ${n}`,
    invalid: [
      { body: () => ({ name: 'x', type: 'totalDistance', start: 0, period: 0 }), field: 'period' },
      { body: () => ({ name: 'x', type: '1bad', start: 0, period: 1 }), field: 'type' },
    ],
  },
  {
    name: 'computed attributes',
    endpoints: computedAttributesEndpoints.slice(0, 5),
    scoped: true,
    shared: true,
    valid: (n) => ({ description: `Speed km/h ${n}`, attribute: 'speedKph', expression: 'speed * 1.852', type: 'Number' }),
    change: { expression: 'speed * 1.852 > 80 ? "fast" : "ok"', type: 'String' },
    keyword: (n) => `km/h ${n}`,
    invalid: [
      { body: () => ({ description: 'x', attribute: 'a', expression: 'speed *', type: 'Number' }), field: 'expression' },
      {
        body: () => ({ description: 'x', attribute: 'a', expression: 'constructor.constructor("return process")()', type: 'String' }),
        field: 'expression',
      },
      { body: () => ({ description: 'x', attribute: 'a', expression: 'speed', type: 'Integer' }), field: 'type' },
    ],
  },
  {
    name: 'saved commands',
    endpoints: commandsEndpoints.slice(0, 5),
    scoped: true,
    shared: true,
    valid: (n) => ({ description: `Immobilise ${n}`, type: 'engineStop' }),
    change: { description: 'Mobilise', type: 'engineResume' },
    keyword: (n) => `Immobilise ${n}`,
    invalid: [{ body: () => ({ description: 'x', type: 'engine stop' }), field: 'type' }],
    unknownRef: { body: () => ({ description: 'x', type: 'custom', deviceId: 999999 }), message: 'Device 999999 not found' },
  },
  {
    name: 'notification rules',
    endpoints: notificationRulesEndpoints.slice(0, 5),
    scoped: true,
    valid: (n) => ({
      type: 'alarm',
      alarms: ['sos'],
      always: true,
      notificators: 'web',
      recipients: [{ userId: 5, email: 'a@company-a.test' }],
      description: `SOS desk ${n}`,
    }),
    change: { alarms: ['sos', 'powerCut'] },
    keyword: (n) => `desk ${n}`,
    invalid: [
      { body: () => ({ type: 'alarm', always: true, notificators: 'web,sms' }), field: 'notificators' },
      { body: () => ({ type: 'alarm', always: true, notificators: ['webhook'] }), field: 'webhookUrl' },
      // A rule that is not `always` may be saved without devices (Traccar's web app links them afterwards, through /permissions).
      {
        body: () => ({ type: 'alarm', always: true, notificators: ['command'], recipients: [{ userId: 5, email: 'a@company-a.test' }] }),
        field: 'commandId',
      },
      {
        body: () => ({
          type: 'deviceOnline',
          alarms: ['sos'],
          always: true,
          notificators: ['web'],
          recipients: [{ userId: 5, email: 'a@company-a.test' }],
        }),
        field: 'alarms',
      },
      {
        body: () => ({ type: 'alarm', always: true, notificators: ['mail'], recipients: [{ userId: 5, email: 'a@company-a.test' }] }),
        field: 'notificators',
      },
      { body: () => ({ type: 'noSuchEvent', always: true, notificators: ['web'] }), field: 'type' },
    ],
  },
];

let counter = 0;
const next = () => ++counter;

for (const c of cases) {
  const [list] = c.endpoints;
  const base = list!.path;
  const writer = c.scoped ? dispatcherOf(101) : testUsers.admin;

  describe(`${c.name} (${base})`, () => {
    it('creates, reads, finds by keyword, replaces and deletes, auditing each write', async () => {
      const n = next();
      const created = await h.call(writer, 'POST', `/api${base}`, c.valid(n));
      expect(created.statusCode, created.body).toBe(200);
      const entity = created.json<{ id: number; companyId?: number | null }>();
      expect(entity).toMatchObject(c.valid(n));
      if (c.scoped) expect(entity.companyId).toBe(101);

      const got = await h.call(writer, 'GET', `/api${base}/${entity.id}`);
      expect(got.statusCode).toBe(200);
      expect(got.json()).toEqual(entity);

      const found = await h.call(writer, 'GET', `/api${base}?keyword=${encodeURIComponent(c.keyword(n))}`);
      expect(found.statusCode, found.body).toBe(200);
      expect(found.json<{ id: number }[]>().map((e) => e.id)).toEqual([entity.id]);
      const none = await h.call(writer, 'GET', `/api${base}?keyword=zz-no-such-thing`);
      expect(none.json()).toEqual([]);

      const replaced = await h.call(writer, 'PUT', `/api${base}/${entity.id}`, { ...c.valid(n), ...c.change });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json()).toMatchObject({ id: entity.id, ...c.change });

      const deleted = await h.call(writer, 'DELETE', `/api${base}/${entity.id}`);
      expect(deleted.statusCode, deleted.body).toBe(204);
      expectError(await h.call(writer, 'GET', `/api${base}/${entity.id}`), 404, 'NOT_FOUND');
      expectError(await h.call(writer, 'DELETE', `/api${base}/${entity.id}`), 404, 'NOT_FOUND');

      const trail = await audit.forEntity(h.adapters.db.orm, trailType(c.name), entity.id);
      expect(trail.map((a) => a.action.split('.').pop())).toEqual(['delete', 'update', 'create']);
      expect(trail.every((a) => a.actorUserId === writer.userId)).toBe(true);
    });

    it('answers 400 naming the field for invalid input', async () => {
      for (const bad of c.invalid) expect400(await h.call(writer, 'POST', `/api${base}`, bad.body(next())), bad.field);
    });

    if (c.unknownRef) {
      it("answers 404 for an unknown id in the body, as for another company's", async () => {
        const res = await h.call(writer, 'POST', `/api${base}`, c.unknownRef!.body());
        expectError(res, 404, 'NOT_FOUND');
        expect(res.json<{ error: { message: string } }>().error.message).toBe(c.unknownRef!.message);
      });
    }

    it('answers 404 for an unknown id on get, replace and delete', async () => {
      expectError(await h.call(writer, 'GET', `/api${base}/987654`), 404, 'NOT_FOUND');
      expectError(await h.call(writer, 'PUT', `/api${base}/987654`, c.valid(next())), 404, 'NOT_FOUND');
      expectError(await h.call(writer, 'DELETE', `/api${base}/987654`), 404, 'NOT_FOUND');
    });

    if (c.conflict) {
      it(`answers 409 naming ${c.conflict.field} for a duplicate`, async () => {
        const n = next();
        expect((await h.call(writer, 'POST', `/api${base}`, c.valid(n))).statusCode).toBe(200);
        const dup = await h.call(writer, 'POST', `/api${base}`, c.conflict!.body(n));
        expectError(dup, 409, 'CONFLICT');
        expect(dup.json<{ error: { details: { field: string } } }>().error.details.field).toBe(c.conflict!.field);
      });
    }

    if (c.scoped) {
      it('keeps each company to its own entries', async () => {
        const n = next();
        const mine = (await h.call(dispatcherOf(101), 'POST', `/api${base}`, c.valid(n))).json<{ id: number }>();
        const url = `/api${base}/${mine.id}`;
        expectError(await h.call(testUsers.companyB, 'GET', url), 404, 'NOT_FOUND');
        expect((await h.call(testUsers.companyB, 'GET', `/api${base}`)).json<{ id: number }[]>().some((e) => e.id === mine.id)).toBe(false);
        expect((await h.call(testUsers.companyA, 'GET', url)).statusCode).toBe(200);
        expect((await h.call(testUsers.analyst, 'GET', url)).statusCode).toBe(200);
        expectError(await h.call(dispatcherOf(202), 'PUT', url, c.valid(n)), 404, 'NOT_FOUND');
        expectError(await h.call(dispatcherOf(202), 'DELETE', url), 404, 'NOT_FOUND');
        expectError(await h.call(testUsers.companyA, 'PUT', url, c.valid(n)), 403, 'FORBIDDEN');
        // another company, like an unknown one, is 404
        expectError(await h.call(dispatcherOf(101), 'POST', `/api${base}`, { ...c.valid(next()), companyId: 202 }), 404, 'NOT_FOUND');
        // a platform dispatcher (no company) is staff: it may file an entry under any company
        const platform = await h.call(testUsers.dispatcher, 'POST', `/api${base}`, { ...c.valid(next()), companyId: 202 });
        expect(platform.statusCode, platform.body).toBe(200);
        expect(platform.json<{ companyId: number | null }>().companyId).toBe(202);
        const staffView = await h.call(testUsers.admin, 'GET', `/api${base}?companyId=101&limit=1000`);
        expect(staffView.json<{ id: number }[]>().some((e) => e.id === mine.id)).toBe(true);
        const otherView = await h.call(testUsers.admin, 'GET', `/api${base}?companyId=202&limit=1000`);
        expect(otherView.json<{ id: number }[]>().some((e) => e.id === mine.id)).toBe(false);
      });
    }

    if (c.shared) {
      it('shows shared entries to every company, changed by staff only', async () => {
        const shared = (await h.call(testUsers.admin, 'POST', `/api${base}`, c.valid(next()))).json<{
          id: number;
          companyId: number | null;
        }>();
        expect(shared.companyId).toBeNull();
        expect((await h.call(testUsers.companyB, 'GET', `/api${base}/${shared.id}`)).statusCode).toBe(200);
        expectError(await h.call(dispatcherOf(101), 'PUT', `/api${base}/${shared.id}`, c.valid(next())), 403, 'FORBIDDEN');
        expectError(await h.call(dispatcherOf(101), 'DELETE', `/api${base}/${shared.id}`), 403, 'FORBIDDEN');
      });
    }

    it('paginates with limit and offset', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push((await h.call(writer, 'POST', `/api${base}`, c.valid(next()))).json<{ id: number }>().id);
      const all = (await h.call(writer, 'GET', `/api${base}?limit=1000`)).json<{ id: number }[]>().map((e) => e.id);
      const page = (await h.call(writer, 'GET', `/api${base}?limit=2&offset=1`)).json<{ id: number }[]>().map((e) => e.id);
      expect(page).toEqual(all.slice(1, 3));
      expect(all).toEqual(expect.arrayContaining(ids));
    });
  });
}

const trailTypes: Record<string, OpsAuditEntity> = {
  groups: 'group',
  drivers: 'driver',
  calendars: 'calendar',
  orders: 'order',
  'device models': 'device_model',
  configurations: 'configuration',
  maintenance: 'maintenance',
  'computed attributes': 'computed_attribute',
  'saved commands': 'saved_command',
  'notification rules': 'notification_rule',
};
const trailType = (name: string): OpsAuditEntity => trailTypes[name]!;

describe('group nesting', () => {
  it('refuses a cycle (400) and a parent of another company (404, as unknown), and a group with children cannot be deleted', async () => {
    const d = dispatcherOf(101);
    const root = (await h.call(d, 'POST', '/api/groups', { name: 'Root' })).json<{ id: number }>();
    const child = (await h.call(d, 'POST', '/api/groups', { name: 'Child', groupId: root.id })).json<{ id: number; groupId: number }>();
    expect(child.groupId).toBe(root.id);
    expect400(await h.call(d, 'PUT', `/api/groups/${root.id}`, { name: 'Root', groupId: child.id }), 'groupId');
    expect400(await h.call(d, 'PUT', `/api/groups/${root.id}`, { name: 'Root', groupId: root.id }), 'groupId');
    const other = (await h.call(dispatcherOf(202), 'POST', '/api/groups', { name: 'TZ' })).json<{ id: number }>();
    // another company's group answers like an unknown one
    expectError(await h.call(d, 'POST', '/api/groups', { name: 'Stray', groupId: other.id }), 404, 'NOT_FOUND');
    expectError(await h.call(d, 'DELETE', `/api/groups/${root.id}`), 409, 'CONFLICT');
    const children = (await h.call(d, 'GET', `/api/groups?groupId=${root.id}`)).json<{ id: number }[]>();
    expect(children.map((g) => g.id)).toEqual([child.id]);
  });
});

describe('drafts', () => {
  it('belong to their owner: another user gets 404, admins read all with all=true', async () => {
    const a = testUsers.companyA;
    const draft = (
      await h.call(a, 'POST', '/api/drafts', { kind: 'shipment', title: 'Half-filled', payload: { origin: 'Mombasa', cargo: [] } })
    ).json<{ id: number; userId: number }>();
    expect(draft.userId).toBe(a.userId);
    expectError(await h.call(testUsers.agentA, 'GET', `/api/drafts/${draft.id}`), 404, 'NOT_FOUND');
    expectError(await h.call(testUsers.agentA, 'PUT', `/api/drafts/${draft.id}`, { kind: 'shipment', payload: {} }), 404, 'NOT_FOUND');
    expect((await h.call(testUsers.agentA, 'GET', '/api/drafts')).json()).toEqual([]);
    const admin = await h.call(testUsers.admin, 'GET', '/api/drafts?all=true&kind=shipment');
    expect(admin.json<{ id: number }[]>().map((d) => d.id)).toContain(draft.id);
    expect((await h.call(testUsers.admin, 'GET', `/api/drafts?userId=${a.userId}`)).json<{ id: number }[]>().map((d) => d.id)).toEqual([
      draft.id,
    ]);
    expect((await h.call(testUsers.admin, 'GET', `/api/drafts/${draft.id}`)).statusCode).toBe(200);
    expectError(await h.call(testUsers.admin, 'DELETE', `/api/drafts/${draft.id}`), 404, 'NOT_FOUND');
    expect400(await h.call(a, 'POST', '/api/drafts', { kind: 'Shipment!', payload: {} }), 'kind');
    expect400(await h.call(a, 'POST', '/api/drafts', { kind: 'shipment' }), 'payload');
    // the fuzzer's finding: a null payload reached the not-null column (500)
    expect400(await h.call(a, 'POST', '/api/drafts', { kind: 'shipment', payload: null }), 'payload');
    expect400(await h.call(a, 'PUT', `/api/drafts/${draft.id}`, { kind: 'shipment', payload: null }), 'payload');
    expectError(await h.call(userWith(['device'], 101), 'GET', '/api/drafts'), 403, 'FORBIDDEN');
    expect((await h.call(a, 'DELETE', `/api/drafts/${draft.id}`)).statusCode).toBe(204);
  });
});

describe('tracking units', () => {
  it('install a device of the company on one of its trucks, one active unit per device', async () => {
    const d = dispatcherOf(101);
    const owner = (await h.call(d, 'POST', '/api/truck-owners', { name: 'Mwangi Haulage', trucks: [{ plateNumber: 'KCA 101A' }] })).json<{
      trucks: { id: number }[];
    }>();
    const truckId = owner.trucks[0]!.id;
    const unit = {
      deviceId: deviceA.id,
      truckId,
      simIccid: '89254021234567890123',
      simPhone: '+254712345678',
      simOperator: 'Safaricom',
      installedAt: '2026-03-01T08:00:00Z',
    };
    const created = await h.call(d, 'POST', '/api/tracking-unit', unit);
    expect(created.statusCode, created.body).toBe(200);
    const dup = await h.call(d, 'POST', '/api/tracking-unit', unit);
    expectError(dup, 409, 'CONFLICT');
    expect(dup.json<{ error: { details: { field: string } } }>().error.details.field).toBe('deviceId');
    // another company's device answers like an unknown one
    expectError(await h.call(d, 'POST', '/api/tracking-unit', { ...unit, deviceId: deviceB.id }), 404, 'NOT_FOUND');
    expect400(await h.call(d, 'POST', '/api/tracking-unit', { ...unit, simPhone: '0712345678' }), 'simPhone');
    expect400(await h.call(d, 'POST', '/api/tracking-unit', { ...unit, simIccid: '123' }), 'simIccid');
    const id = created.json<{ id: number }>().id;
    expect400(await h.call(d, 'PUT', `/api/tracking-unit/${id}`, { ...unit, removedAt: '2026-02-01T00:00:00Z' }), 'removedAt');
    const removed = await h.call(d, 'PUT', `/api/tracking-unit/${id}`, { ...unit, removedAt: '2026-04-01T00:00:00Z' });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(
      (await h.call(d, 'GET', `/api/tracking-unit?active=false&deviceId=${deviceA.id}`)).json<{ id: number }[]>().map((u) => u.id),
    ).toEqual([id]);
    expect((await h.call(d, 'POST', '/api/tracking-unit', unit)).statusCode).toBe(200); // the device may be installed again
    expect((await h.call(d, 'GET', `/api/tracking-unit?active=true&keyword=Safaricom`)).json<unknown[]>()).toHaveLength(1);
  });
});
