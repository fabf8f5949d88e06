import { z } from 'zod';
import { idParam, notRef, ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page, repeated } from './common';
import { associationRoles } from './roles';

/**
 * Complaint workflow: open → under_review → resolved | dismissed → closed. A resolved, dismissed
 * or closed complaint may be reopened (back to open) within the configured number of days after
 * its decision (COMPLAINT_REOPEN_DAYS). Anything else answers 409 INVALID_TRANSITION.
 */
export const ComplaintStatus = z.enum(['open', 'under_review', 'resolved', 'dismissed', 'closed']);
export type ComplaintStatus = z.infer<typeof ComplaintStatus>;

/** What the complaint is about: a company, one of its drivers or trucks, or a journey flag. */
export const ComplaintSubjectType = z.enum(['company', 'driver', 'truck', 'journey_flag']);
export type ComplaintSubjectType = z.infer<typeof ComplaintSubjectType>;

export const ComplaintCategory = z.enum([
  'delay',
  'cargo_damage',
  'cargo_loss',
  'route_deviation',
  'unsafe_driving',
  'overloading',
  'misconduct',
  'documentation',
  'other',
]);
export type ComplaintCategory = z.infer<typeof ComplaintCategory>;

export const ComplaintStatusChange = z
  .object({
    at: IsoDateTime,
    actorUserId: z.number().int(),
    actorEmail: z.string(),
    from: ComplaintStatus.nullable().describe('null for the filing itself'),
    to: ComplaintStatus,
    note: z.string().nullable(),
  })
  .meta({ id: 'ComplaintStatusChange' });

export const Complaint = z
  .object({
    id: z.number().int().positive(),
    subjectType: ComplaintSubjectType,
    subjectRef: z.string().describe('company id, driver id or licence number, truck plate or device id, or journey flag id'),
    companyId: z.number().int().describe('the company the complaint is against'),
    category: ComplaintCategory,
    title: z.string(),
    description: z.string(),
    journeyId: z.string().nullable(),
    occurredAt: IsoDateTime.nullable(),
    status: ComplaintStatus,
    resolution: z.string().nullable().describe('the note of the latest decision'),
    filedBy: z.object({ userId: z.number().int(), email: z.string(), companyId: z.number().int().nullable() }),
    statusChangedAt: IsoDateTime,
    decidedAt: IsoDateTime.nullable().describe('when it was last resolved or dismissed (the reopen window starts here)'),
    reopenUntil: IsoDateTime.nullable().describe('last moment a reopen is allowed, when the complaint is decided'),
    allowedNextStatuses: z.array(ComplaintStatus).describe('what PUT /complaints/{id}/status accepts now'),
    createdAt: IsoDateTime,
    updatedAt: IsoDateTime,
  })
  .meta({ id: 'Complaint' });
export type Complaint = z.infer<typeof Complaint>;

export const ComplaintDetail = Complaint.extend({ history: z.array(ComplaintStatusChange) }).meta({ id: 'ComplaintDetail' });
export type ComplaintDetail = z.infer<typeof ComplaintDetail>;

export const ComplaintInput = z
  .object({
    subjectType: ComplaintSubjectType,
    subjectRef: z.string().trim().min(1).max(64),
    companyId: ref('company', z.number().int().positive(), { scope: 'any' }).describe('the company complained against: any company'),
    category: ComplaintCategory,
    title: z.string().trim().min(3).max(200),
    description: z.string().trim().min(10).max(5000),
    journeyId: notRef(
      z.string().min(1).max(64),
      "the journey as the complainant names it (often another company's); kept as text, not resolved",
    )
      .nullable()
      .default(null),
    occurredAt: IsoDateTime.nullable().default(null),
  })
  .meta({ id: 'ComplaintInput' });
export type ComplaintInput = z.infer<typeof ComplaintInput>;

export const ComplaintStatusInput = z
  .object({
    status: ComplaintStatus,
    note: z.string().trim().min(3).max(2000).optional().describe('required when resolving, dismissing or reopening'),
  })
  .meta({ id: 'ComplaintStatusInput' });
export type ComplaintStatusInput = z.infer<typeof ComplaintStatusInput>;

export const ComplaintsQuery = Pagination.extend({
  status: repeated(ComplaintStatus).optional(),
  subjectType: ComplaintSubjectType.optional(),
  category: repeated(ComplaintCategory).optional(),
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  from: IsoDateTime.optional().describe('filed at or after'),
  to: IsoDateTime.optional().describe('filed at or before'),
  keyword: z.string().max(100).optional().describe('in title, description or subject'),
});

export const ComplaintPage = page(Complaint, 'ComplaintPage');
export type ComplaintPage = z.infer<typeof ComplaintPage>;

const tags = ['complaints'];
export const complaintsEndpoints = [
  defineEndpoint({
    id: 'complaints.create',
    method: 'post',
    path: '/complaints',
    service: 'ops-api',
    tags,
    summary: 'File a complaint against a company, driver, truck or journey flag',
    access: 'authenticated',
    description: 'Any signed-in user may file. The complaint starts open; the association is notified.',
    request: { body: ComplaintInput },
    responses: { 201: { description: 'The filed complaint', schema: Complaint } },
  }),
  defineEndpoint({
    id: 'complaints.list',
    method: 'get',
    path: '/complaints',
    service: 'ops-api',
    tags,
    summary: 'Complaints, newest first, with filters',
    access: associationRoles,
    request: { query: ComplaintsQuery },
    responses: { 200: { description: 'A page of complaints', schema: ComplaintPage } },
  }),
  defineEndpoint({
    id: 'complaints.get',
    method: 'get',
    path: '/complaints/{id}',
    service: 'ops-api',
    tags,
    summary: 'One complaint with its status history',
    access: associationRoles,
    request: { params: idParam('complaint') },
    responses: { 200: { description: 'The complaint', schema: ComplaintDetail } },
  }),
  defineEndpoint({
    id: 'complaints.setStatus',
    method: 'put',
    path: '/complaints/{id}/status',
    service: 'ops-api',
    tags,
    summary: 'Move a complaint along its workflow',
    description: 'A change the workflow does not allow answers 409 INVALID_TRANSITION with details { current, allowed }.',
    access: ['association_officer'],
    request: { params: idParam('complaint'), body: ComplaintStatusInput },
    responses: { 200: { description: 'The complaint after the change', schema: ComplaintDetail } },
  }),
] as const;
