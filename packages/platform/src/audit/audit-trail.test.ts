import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify from 'fastify';
import { sql } from 'drizzle-orm';
import { getTableConfig, integer, pgSchema, text } from 'drizzle-orm/pg-core';
import { createPgliteDb } from '../adapters/db-pglite';
import type { Db } from '../adapters/db';
import type { Identity } from '../identity';
import { auditActorColumns, auditLogTable } from './audit-log-table';
import { actorOf, createAuditTrail } from './audit-trail';

// two services' shapes: signed-in actors with company and note (like journey), anonymous callers with an address (like the gateway)
const decisions = pgSchema('audit_decisions');
const decisionLog = auditLogTable(decisions, {
  indexPrefix: 'decisions_audit',
  actor: 'required',
  columns: { actorCompanyId: auditActorColumns.actorCompanyId(), companyId: integer('company_id'), note: text('note') },
});
const identities = pgSchema('audit_identities');
const identityLog = auditLogTable(identities, {
  indexPrefix: 'identities_audit',
  actor: 'optional',
  columns: { address: auditActorColumns.address() },
});

const decisionTrail = createAuditTrail(decisionLog, { entityTypes: ['journey', 'flag'] });
const identityTrail = createAuditTrail(identityLog, { entityTypes: ['user', 'session'] });

const officer: Identity = { userId: 7, email: 'officer@kta.example', name: 'Officer', roles: ['association_officer'], companyId: null };
const dispatcher: Identity = { userId: 12, email: 'dispatch@transami.example', name: 'Dispatch', roles: ['dispatcher'], companyId: 3 };

// the columns as the services' migrations created them (services/journey/drizzle/0000_init.sql, services/gateway/drizzle/0000_identity.sql)
const ddl = [
  `create schema audit_decisions`,
  `create table audit_decisions.audit_log (
    id bigserial primary key, at timestamp with time zone default now() not null,
    actor_user_id integer not null, actor_email text not null, actor_company_id integer,
    action text not null, entity_type text not null, entity_id text not null, company_id integer,
    before jsonb, after jsonb, note text, request_id text)`,
  `create schema audit_identities`,
  `create table audit_identities.audit_log (
    id bigserial primary key, at timestamp with time zone default now() not null,
    actor_user_id integer, actor_email text,
    action text not null, entity_type text not null, entity_id text not null,
    before jsonb, after jsonb, address text, request_id text)`,
];

let db: Db;
beforeAll(async () => {
  db = await createPgliteDb();
  for (const statement of ddl) await db.orm.execute(sql.raw(statement));
});
afterAll(async () => {
  await db?.close();
});

describe('auditLogTable', () => {
  it('makes the actor columns NOT NULL only for signed-in trails, adds the service columns and names the indexes', () => {
    const cols = (t: typeof decisionLog | typeof identityLog) =>
      Object.fromEntries(getTableConfig(t).columns.map((c) => [c.name, `${c.getSQLType()}${c.notNull ? ' not null' : ''}`]));
    expect(cols(decisionLog)).toEqual({
      id: 'bigserial not null',
      at: 'timestamp with time zone not null',
      actor_user_id: 'integer not null',
      actor_email: 'text not null',
      actor_company_id: 'integer',
      company_id: 'integer',
      note: 'text',
      action: 'text not null',
      entity_type: 'text not null',
      entity_id: 'text not null',
      before: 'jsonb',
      after: 'jsonb',
      request_id: 'text',
    });
    expect(cols(identityLog)).toMatchObject({ actor_user_id: 'integer', actor_email: 'text', address: 'text' });
    expect(Object.keys(cols(identityLog))).not.toContain('company_id');
    expect(getTableConfig(decisionLog).schema).toBe('audit_decisions');
    expect(getTableConfig(identityLog).indexes.map((i) => i.config.name)).toEqual([
      'identities_audit_entity_idx',
      'identities_audit_at_idx',
    ]);
  });
});

describe('createAuditTrail', () => {
  it('records who, what, the company and the note, and reads one entity back newest first', async () => {
    await decisionTrail.record(db.orm, dispatcher, {
      action: 'journey.create',
      entityType: 'journey',
      entityId: 41,
      companyId: 3,
      after: { state: 'planned' },
      requestId: 'req-1',
    });
    await decisionTrail.record(db.orm, officer, {
      action: 'journey.cancel',
      entityType: 'journey',
      entityId: '41',
      companyId: 3,
      before: { state: 'planned' },
      after: { state: 'cancelled' },
      note: 'truck broke down',
    });
    await decisionTrail.record(db.orm, officer, { action: 'flag.resolve', entityType: 'flag', entityId: 41 });

    const trail = await decisionTrail.forEntity(db.orm, 'journey', 41);
    expect(trail.map((r) => [r.action, r.actorUserId, r.actorEmail, r.actorCompanyId, r.companyId, r.note, r.requestId])).toEqual([
      ['journey.cancel', 7, 'officer@kta.example', null, 3, 'truck broke down', null],
      ['journey.create', 12, 'dispatch@transami.example', 3, 3, null, 'req-1'],
    ]);
    expect(trail[1]).toMatchObject({ entityId: '41', before: null, after: { state: 'planned' } });
    expect(trail[0]!.at).toBeInstanceOf(Date);
    expect(await decisionTrail.forEntity(db.orm, 'flag', 41)).toHaveLength(1);
  });

  it('writes nothing when the transaction it was recorded in rolls back', async () => {
    await expect(
      db.orm.transaction(async (tx) => {
        await decisionTrail.record(tx, officer, { action: 'journey.create', entityType: 'journey', entityId: 99 });
        throw new Error('the decision failed');
      }),
    ).rejects.toThrow('the decision failed');
    expect(await decisionTrail.forEntity(db.orm, 'journey', 99)).toEqual([]);
    await db.orm.transaction(async (tx) => {
      await decisionTrail.record(tx, officer, { action: 'journey.create', entityType: 'journey', entityId: 99 });
      await decisionTrail.record(tx, officer, { action: 'journey.cancel', entityType: 'journey', entityId: 99 });
    });
    // same transaction, same `at`: the later row still comes first
    expect((await decisionTrail.forEntity(db.orm, 'journey', 99)).map((r) => r.action)).toEqual(['journey.cancel', 'journey.create']);
  });

  it('lists a page with filters and the total', async () => {
    const all = await decisionTrail.list(db.orm, { limit: 100, offset: 0 });
    expect(all.total).toBe(all.rows.length);
    expect(all.total).toBeGreaterThanOrEqual(5);

    const officerJourneys = await decisionTrail.list(db.orm, { entityType: 'journey', actorUserId: 7, limit: 1, offset: 0 });
    expect(officerJourneys.total).toBe(3);
    expect(officerJourneys.rows.map((r) => [r.action, r.entityId])).toEqual([['journey.cancel', '99']]);
    const second = await decisionTrail.list(db.orm, { entityType: 'journey', actorUserId: 7, limit: 1, offset: 1 });
    expect(second.rows.map((r) => [r.action, r.entityId])).toEqual([['journey.create', '99']]);

    const cancels = await decisionTrail.list(db.orm, { actions: ['journey.cancel'], limit: 10, offset: 0 });
    expect(cancels.rows.map((r) => r.entityId).sort()).toEqual(['41', '99']);

    const future = new Date(Date.now() + 3_600_000);
    expect((await decisionTrail.list(db.orm, { from: future, limit: 10, offset: 0 })).total).toBe(0);
    expect((await decisionTrail.list(db.orm, { to: future, limit: 10, offset: 0 })).total).toBe(all.total);
  });

  it('takes the actor of a request, signed in or not, with its address and request id', async () => {
    const app = Fastify();
    app.addHook('onRequest', async (req) => {
      if (req.headers['x-test-user'] === 'officer') req.identity = officer;
    });
    app.post('/reset', async (req) => {
      const actor = actorOf(req);
      await identityTrail.record(db.orm, actor, { action: 'password.reset-request', entityType: 'user', entityId: 5 });
      return actor;
    });
    try {
      const anonymous = await app.inject({ method: 'POST', url: '/reset', remoteAddress: '41.90.1.2' });
      expect(anonymous.json()).toMatchObject({ userId: null, email: null, address: '41.90.1.2' });
      await app.inject({ method: 'POST', url: '/reset', headers: { 'x-test-user': 'officer' } });
    } finally {
      await app.close();
    }
    const trail = await identityTrail.forEntity(db.orm, 'user', 5);
    expect(trail.map((r) => [r.actorUserId, r.actorEmail])).toEqual([
      [7, 'officer@kta.example'],
      [null, null],
    ]);
    expect(trail[1]!.address).toBe('41.90.1.2');
    expect(trail.every((r) => typeof r.requestId === 'string' && r.requestId.length > 0)).toBe(true);

    // an entry's own request id wins over the actor's
    await identityTrail.record(
      db.orm,
      { userId: 7, email: officer.email, requestId: 'from-actor' },
      { action: 'session.login', entityType: 'session', entityId: 7, requestId: 'from-entry' },
    );
    await identityTrail.record(
      db.orm,
      { userId: 7, email: officer.email, requestId: 'from-actor' },
      { action: 'session.logout', entityType: 'session', entityId: 7 },
    );
    expect((await identityTrail.forEntity(db.orm, 'session', 7)).map((r) => r.requestId)).toEqual(['from-actor', 'from-entry']);
  });

  it('refuses, at compile time, an anonymous actor on a signed-in trail and an entity type of another service', async () => {
    const noRows = async () =>
      (await db.rows<{ n: number }>(sql`select count(*)::int as n from audit_decisions.audit_log where entity_id = 'typecheck'`))[0]!.n;
    const before = await noRows();
    // each call the compiler must refuse is one short line, so that no layout moves it off its directive
    const anonymous = { userId: null, email: null };
    const journeyEntry: Parameters<typeof decisionTrail.record>[2] = {
      action: 'journey.create',
      entityType: 'journey',
      entityId: 'typecheck',
    };
    // @ts-expect-error the decisions trail keeps NOT NULL actors: a caller nobody identified is refused
    const refused = decisionTrail.record(db.orm, anonymous, journeyEntry);
    await expect(refused).rejects.toThrow();
    // @ts-expect-error 'user' is the identity trail's entity, not this one's
    await decisionTrail.forEntity(db.orm, 'user', 'typecheck');
    // @ts-expect-error the identity trail has no note column
    await identityTrail.record(db.orm, officer, { action: 'user.create', entityType: 'user', entityId: 'typecheck', note: 'x' });
    expect(await noRows()).toBe(before);
  });
});
