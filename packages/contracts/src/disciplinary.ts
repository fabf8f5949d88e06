import { z } from 'zod';
import { notRef, ref } from './references';
import { defineEndpoint } from './endpoint';
import { IsoDateTime, Pagination, page, repeated } from './common';
import { associationRoles } from './roles';

export const DisciplinarySubjectType = z.enum(['company', 'driver', 'truck']);
export type DisciplinarySubjectType = z.infer<typeof DisciplinarySubjectType>;

export const SanctionType = z.enum(['warning', 'fine', 'probation', 'training', 'suspension', 'blacklist']);
export type SanctionType = z.infer<typeof SanctionType>;

const Currency = z.string().regex(/^[A-Z]{3}$/, 'ISO 4217 code, e.g. KES or TZS');

export const DisciplinaryRecord = z
  .object({
    id: z.number().int().positive(),
    subjectType: DisciplinarySubjectType,
    subjectRef: z.string().describe('company id, driver id or licence number, truck plate or device id'),
    companyId: z.number().int(),
    sanctionType: SanctionType,
    reason: z.string(),
    startsAt: IsoDateTime,
    endsAt: IsoDateTime.nullable().describe('null: open-ended (e.g. a blacklisting until lifted)'),
    fineAmount: z.number().nullable(),
    fineCurrency: z.string().nullable(),
    complaintId: z.number().int().nullable(),
    journeyFlagId: z.string().nullable(),
    active: z.boolean().describe('in force now'),
    recordedBy: z.object({ userId: z.number().int(), email: z.string() }),
    createdAt: IsoDateTime,
  })
  .meta({ id: 'DisciplinaryRecord' });
export type DisciplinaryRecord = z.infer<typeof DisciplinaryRecord>;

export const DisciplinaryInput = z
  .object({
    subjectType: DisciplinarySubjectType,
    subjectRef: z.string().trim().min(1).max(64),
    companyId: ref('company', z.number().int().positive()),
    sanctionType: SanctionType,
    reason: z.string().trim().min(5).max(2000),
    startsAt: IsoDateTime,
    endsAt: IsoDateTime.nullable().default(null),
    fineAmount: z.number().positive().max(1e12).nullable().default(null).describe('required for a fine'),
    fineCurrency: Currency.nullable().default(null).describe('required with fineAmount'),
    complaintId: ref('complaint', z.number().int().positive()).nullable().default(null),
    journeyFlagId: notRef(z.string().min(1).max(64), 'free text as the officer names the flag; kept as written, not resolved')
      .nullable()
      .default(null),
  })
  .meta({ id: 'DisciplinaryInput' });
export type DisciplinaryInput = z.infer<typeof DisciplinaryInput>;

export const DisciplinaryQuery = Pagination.extend({
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  subjectType: DisciplinarySubjectType.optional(),
  subjectRef: z.string().max(64).optional(),
  sanctionType: repeated(SanctionType).optional(),
  complaintId: ref('complaint', z.coerce.number().int().positive()).optional(),
  activeAt: IsoDateTime.optional().describe('only records in force at this time'),
  from: IsoDateTime.optional().describe('recorded at or after'),
  to: IsoDateTime.optional().describe('recorded at or before'),
});

export const DisciplinaryPage = page(DisciplinaryRecord, 'DisciplinaryPage');
export type DisciplinaryPage = z.infer<typeof DisciplinaryPage>;

const tags = ['disciplinary'];
export const disciplinaryEndpoints = [
  defineEndpoint({
    id: 'disciplinary.list',
    method: 'get',
    path: '/disciplinary/admin/all',
    service: 'ops-api',
    tags,
    summary: 'Disciplinary records, newest first, with filters',
    access: associationRoles,
    request: { query: DisciplinaryQuery },
    responses: { 200: { description: 'A page of records', schema: DisciplinaryPage } },
  }),
  defineEndpoint({
    id: 'disciplinary.create',
    method: 'post',
    path: '/disciplinary/admin',
    service: 'ops-api',
    tags,
    summary: 'Record a sanction against a company, driver or truck',
    description:
      'Audited; the company is notified. A linked complaint must exist and concern the same company (400 naming complaintId otherwise).',
    access: ['association_officer'],
    request: { body: DisciplinaryInput },
    responses: { 201: { description: 'The record', schema: DisciplinaryRecord } },
  }),
] as const;
