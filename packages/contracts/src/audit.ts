import { z } from 'zod';
import { notRef } from './references';
import { defineEndpoint, type ServiceName } from './endpoint';
import { IsoDateTime, Pagination, page } from './common';
import type { Role } from './roles';

/**
 * Read access to the decisions each service audits (its own `audit_log`, written by the platform's
 * audit trail). One endpoint per owning service, under /audit/<area>, newest first, paginated and
 * filtered like every other list.
 */

/** The entity types each service audits (services/<svc>/src/audit/audit.ts builds its trail from these). */
export const IdentityAuditEntity = z.enum(['user', 'permission', 'token', 'session', 'server']);
export const JourneyAuditEntity = z.enum(['route', 'journey', 'flag']);
export const GeofenceAuditEntity = z.enum(['geofence', 'geofence_link']);
export const OperationsAuditEntity = z.enum([
  'announcement',
  'calendar',
  'cargo',
  'company',
  'complaint',
  'computed_attribute',
  'configuration',
  'device',
  'device_model',
  'disciplinary_record',
  'draft',
  'driver',
  'group',
  'inventory',
  'maintenance',
  'notification_rule',
  'object_link',
  'observatory_settings',
  'order',
  'position',
  'saved_command',
  'scheduled_report',
  'shipment',
  'single_use_certificate',
  'tracking_unit',
  'truck_owner',
]);

const ActionName = z.string().regex(/^[A-Za-z][A-Za-z0-9_.:-]{0,63}$/, 'an action such as shipment.status or user.create');

/** action=a&action=b or action=a,b (or both). */
const ActionList = z.preprocess((v) => {
  if (v === undefined) return undefined;
  const parts = (Array.isArray(v) ? v : [v]).flatMap((x) => (typeof x === 'string' ? x.split(',') : [x]));
  return parts.map((p) => (typeof p === 'string' ? p.trim() : p)).filter((p) => p !== '');
}, z.array(ActionName).min(1).max(20));

/** The list query of an audit endpoint, with that service's entity types. */
export function auditListQuery<E extends z.ZodEnum>(entityType: E) {
  return Pagination.extend({
    entityType: entityType.optional(),
    entityId: notRef(z.string().trim().min(1).max(64), 'any audited entry, deleted ones too (the trail outlives them); staff only')
      .optional()
      .describe('the id of the entity, as written (numbers as text)'),
    actorUserId: notRef(
      z.coerce.number().int().min(0),
      'who decided, deleted users too (the trail outlives them); 0 the platform; staff only',
    )
      .optional()
      .describe('who decided (0: the platform itself, e.g. seeding)'),
    action: ActionList.optional().describe('one or more actions: repeat the parameter or separate with commas'),
    from: IsoDateTime.optional().describe('decided at or after'),
    to: IsoDateTime.optional().describe('decided at or before'),
  }).refine((q) => q.from === undefined || q.to === undefined || Date.parse(q.from) <= Date.parse(q.to), {
    path: ['to'],
    message: 'to must not be before from',
  });
}

const ActorBase = { userId: z.number().int(), email: z.string() };
const ActorCompany = { companyId: z.number().int().nullable().describe("the actor's company (null: association or platform staff)") };

function auditEntry<E extends z.ZodEnum, A extends z.ZodRawShape, X extends z.ZodRawShape>(id: string, entityType: E, actor: A, extra: X) {
  return z
    .object({
      id: z.number().int(),
      at: IsoDateTime,
      actor: z.object(actor),
      action: z.string(),
      entityType,
      entityId: z.string(),
      before: z.unknown().describe('the entity before the decision (null when created)'),
      after: z.unknown().describe('the entity after the decision (null when deleted)'),
      requestId: z.string().nullable(),
      ...extra,
    })
    .meta({ id });
}

export const IdentityAuditEntry = auditEntry(
  'IdentityAuditEntry',
  IdentityAuditEntity,
  {
    userId: z.number().int().nullable().describe('null: nobody was signed in (a failed sign-in, a reset request)'),
    email: z.string().nullable(),
  },
  { address: z.string().nullable().describe("the caller's network address") },
);
export const JourneyAuditEntry = auditEntry(
  'JourneyAuditEntry',
  JourneyAuditEntity,
  { ...ActorBase, ...ActorCompany },
  {
    companyId: z.number().int().nullable().describe('the company the journey belongs to'),
    note: z.string().nullable().describe('the note or reason given with the decision'),
  },
);
export const GeofenceAuditEntry = auditEntry('GeofenceAuditEntry', GeofenceAuditEntity, ActorBase, {});
export const OperationsAuditEntry = auditEntry(
  'OperationsAuditEntry',
  OperationsAuditEntity,
  { ...ActorBase, ...ActorCompany },
  {
    companyId: z.number().int().nullable().describe('the company the decision concerns'),
    reason: z.string().nullable().describe('the reason given with the decision'),
  },
);
export type IdentityAuditEntry = z.infer<typeof IdentityAuditEntry>;
export type JourneyAuditEntry = z.infer<typeof JourneyAuditEntry>;
export type GeofenceAuditEntry = z.infer<typeof GeofenceAuditEntry>;
export type OperationsAuditEntry = z.infer<typeof OperationsAuditEntry>;

export const IdentityAuditQuery = auditListQuery(IdentityAuditEntity);
export const JourneyAuditQuery = auditListQuery(JourneyAuditEntity);
export const GeofenceAuditQuery = auditListQuery(GeofenceAuditEntity);
export const OperationsAuditQuery = auditListQuery(OperationsAuditEntity);

export const IdentityAuditPage = page(IdentityAuditEntry, 'IdentityAuditPage');
export const JourneyAuditPage = page(JourneyAuditEntry, 'JourneyAuditPage');
export const GeofenceAuditPage = page(GeofenceAuditEntry, 'GeofenceAuditPage');
export const OperationsAuditPage = page(OperationsAuditEntry, 'OperationsAuditPage');
export type IdentityAuditPage = z.infer<typeof IdentityAuditPage>;
export type JourneyAuditPage = z.infer<typeof JourneyAuditPage>;
export type GeofenceAuditPage = z.infer<typeof GeofenceAuditPage>;
export type OperationsAuditPage = z.infer<typeof OperationsAuditPage>;

/**
 * Who reviews decisions. Oversight trails (journeys, fences, operations): the association, analysts
 * included, as they read every other oversight list (complaints, disciplinary records, all shipments).
 * The identity trail (users, roles, tokens, sign-ins with addresses) is security data: administrators
 * and officers only, as with permissions.list; analysts read no identity data anywhere.
 */
export const auditOversightReaders: Role[] = ['admin', 'association_officer', 'association_analyst'];
export const auditIdentityReaders: Role[] = ['admin', 'association_officer'];

const tags = ['audit'];
const description = (what: string, service: ServiceName) =>
  `Every ${what} decision ${service} audited, newest first: who (actor), when, the action on which entity, the entity before and after. ` +
  'Filters combine (AND); action takes several values. A `from` after `to` answers 400 naming `to`.';

/** Traccar's Action: one audited decision, as GET /audit answers it. */
export const TraccarAction = z
  .object({
    id: z.number().int().describe("unique across the trails: 2n for the gateway's entry n, 2n+1 for ops-api's"),
    actionTime: IsoDateTime,
    address: z.string().optional().describe("the caller's network address, where the trail keeps it (the gateway's)"),
    userId: z.number().int().describe('who decided (0: nobody signed in, or the platform itself)'),
    userEmail: z.string().optional(),
    actionType: z.string().describe("Traccar's verb: create, edit, remove, link, unlink, login, logout, or the trail's own (e.g. send)"),
    objectType: z.string().describe('what was acted on: device, user, permission, ...'),
    objectId: z.number().int().describe('its id (0 when it has none that is a number)'),
    attributes: z.record(z.string(), z.unknown()).describe("Corridor's action name and request id"),
  })
  .meta({ id: 'TraccarAction' });
export type TraccarAction = z.infer<typeof TraccarAction>;

export const TraccarAuditQuery = z
  .object({ from: IsoDateTime, to: IsoDateTime })
  .refine((q) => Date.parse(q.from) <= Date.parse(q.to), { path: ['to'], message: 'to must not be before from' });

export const auditEndpoints = [
  defineEndpoint({
    id: 'audit.identity',
    method: 'get',
    path: '/audit/identity',
    service: 'gateway',
    tags,
    access: auditIdentityReaders,
    summary: 'The audit trail of identity decisions (users, permissions, tokens, sessions)',
    description: description('identity', 'gateway'),
    request: { query: IdentityAuditQuery },
    responses: { 200: { description: 'A page of audit entries', schema: IdentityAuditPage } },
  }),
  defineEndpoint({
    id: 'audit.journeys',
    method: 'get',
    path: '/audit/journeys',
    service: 'journey',
    tags,
    access: auditOversightReaders,
    summary: 'The audit trail of route, journey and flag decisions',
    description: description('route, journey and flag', 'journey'),
    request: { query: JourneyAuditQuery },
    responses: { 200: { description: 'A page of audit entries', schema: JourneyAuditPage } },
  }),
  defineEndpoint({
    id: 'audit.geofences',
    method: 'get',
    path: '/audit/geofences',
    service: 'geofence',
    tags,
    access: auditOversightReaders,
    summary: 'The audit trail of geofence changes and links',
    description: description('geofence', 'geofence'),
    request: { query: GeofenceAuditQuery },
    responses: { 200: { description: 'A page of audit entries', schema: GeofenceAuditPage } },
  }),
  defineEndpoint({
    id: 'audit.operations',
    method: 'get',
    path: '/audit/operations',
    service: 'ops-api',
    tags,
    access: auditOversightReaders,
    summary: 'The audit trail of operations decisions (shipments, cargo, certificates, complaints, sanctions, devices...)',
    description: description('operations', 'ops-api'),
    request: { query: OperationsAuditQuery },
    responses: { 200: { description: 'A page of audit entries', schema: OperationsAuditPage } },
  }),
  defineEndpoint({
    id: 'audit.traccar',
    method: 'get',
    path: '/audit',
    service: 'gateway',
    tags,
    access: ['admin'],
    summary: "Traccar's audit log: the actions of a period, from the identity and operations trails",
    description:
      "Administrators only, as in Traccar. The gateway's identity trail (sign-ins, users, links) and ops-api's operations trail " +
      '(devices, groups, commands, ...) between from and to, oldest first, at most 10,000 of each (the newest). The geofence and journey trails ' +
      'stay at /audit/geofences and /audit/journeys.',
    request: { query: TraccarAuditQuery },
    responses: { 200: { description: 'Actions', schema: z.array(TraccarAction) } },
  }),
] as const;
