import { describe, expect, it } from 'vitest';
import {
  IdentityAuditEntity,
  IdentityAuditEntry,
  IdentityAuditQuery,
  OperationsAuditEntry,
  OperationsAuditQuery,
} from '@corridor/contracts';
import type { AuditFilter } from './audit-trail';
import { auditEntryView, auditFilterFrom, auditPage, type AuditTrailReader } from './audit-query';

const at = new Date('2025-03-03T08:15:00.000Z');
// rows as drizzle selects them from two services' tables (ops-api: actor company, company, reason; gateway: anonymous actor, address)
const opsRow = {
  id: 12,
  at,
  actorUserId: 2,
  actorEmail: 'officer@test',
  actorCompanyId: null,
  companyId: 101,
  reason: 'customs query',
  action: 'shipment.status',
  entityType: 'shipment',
  entityId: '7',
  before: { status: 'at_border' },
  after: { status: 'on_hold' },
  requestId: 'req-9',
};
const identityRow = {
  id: 3,
  at,
  actorUserId: null,
  actorEmail: null,
  address: '41.90.1.2',
  action: 'password.reset-request',
  entityType: 'user',
  entityId: '5',
  before: null,
  after: null,
  requestId: null,
};

describe('auditFilterFrom', () => {
  it('turns the parsed contract query into the trail filter: action lists, dates, ids', () => {
    const q = OperationsAuditQuery.parse({
      entityType: 'shipment',
      entityId: '7',
      actorUserId: '2',
      action: ['shipment.status,shipment.update', 'cargo.status'],
      from: '2025-03-01T00:00:00Z',
      to: '2025-03-04T00:00:00+03:00',
      limit: '20',
      offset: '40',
    });
    expect(auditFilterFrom(q)).toEqual<AuditFilter<string>>({
      entityType: 'shipment',
      entityId: '7',
      actorUserId: 2,
      actions: ['shipment.status', 'shipment.update', 'cargo.status'],
      from: new Date('2025-03-01T00:00:00Z'),
      to: new Date('2025-03-03T21:00:00Z'),
      limit: 20,
      offset: 40,
    });
  });

  it('leaves out what the query does not give, and keeps actor 0 (the platform itself)', () => {
    expect(auditFilterFrom(OperationsAuditQuery.parse({}))).toEqual({ limit: 100, offset: 0 });
    expect(auditFilterFrom(OperationsAuditQuery.parse({ actorUserId: '0' }))).toEqual({ actorUserId: 0, limit: 100, offset: 0 });
  });
});

describe('auditEntryView', () => {
  it("groups the actor (with the actor's company where the table keeps it) and keeps the service's own columns", () => {
    const view = auditEntryView(opsRow);
    expect(view).toEqual({
      id: 12,
      at: '2025-03-03T08:15:00.000Z',
      actor: { userId: 2, email: 'officer@test', companyId: null },
      companyId: 101,
      reason: 'customs query',
      action: 'shipment.status',
      entityType: 'shipment',
      entityId: '7',
      before: { status: 'at_border' },
      after: { status: 'on_hold' },
      requestId: 'req-9',
    });
    expect(OperationsAuditEntry.parse(view)).toEqual(view);
  });

  it('an anonymous caller on the identity trail: no actor company, the address kept', () => {
    const view = auditEntryView(identityRow);
    expect(view.actor).toEqual({ userId: null, email: null });
    expect(view).toMatchObject({ address: '41.90.1.2', at: '2025-03-03T08:15:00.000Z' });
    expect(IdentityAuditEntry.parse(view)).toEqual(view);
  });
});

describe('auditPage', () => {
  it('lists with the filter and answers { items, total, limit, offset }', async () => {
    const seen: AuditFilter<string>[] = [];
    const reader: AuditTrailReader<typeof identityRow, (typeof IdentityAuditEntity.options)[number]> = {
      entityTypes: IdentityAuditEntity.options,
      list: async (_db, f) => {
        seen.push(f);
        return { rows: [identityRow], total: 31 };
      },
    };
    const page = await auditPage(
      reader,
      {} as never,
      IdentityAuditQuery.parse({ entityType: 'user', action: 'password.reset-request', limit: '1', offset: '30' }),
    );
    expect(seen).toEqual([{ entityType: 'user', actions: ['password.reset-request'], limit: 1, offset: 30 }]);
    expect(page).toMatchObject({ total: 31, limit: 1, offset: 30, items: [{ id: 3, actor: { userId: null } }] });
  });
});
