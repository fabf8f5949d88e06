import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { Attributes, Pagination } from './common';
import { idParam, ref } from './references';
import { ListQuery, OwnerCompanyInput, resourceEndpoints, trackingWriters } from './resource-endpoints';

/**
 * Scheduled reports (Traccar's ReportResource, /reports CRUD of Report {id, type, description,
 * calendarId, attributes}): a report of some devices and groups that runs each time an event of
 * its calendar ends, over that event's period, and is emailed as a file to its recipients. Traccar
 * links devices and groups through permissions and mails the owning user; here they are fields of
 * the report (deviceIds, groupIds, recipients). Every run is kept with its status (GET /reports/{id}/runs).
 */
export const ScheduledReportType = z.enum(['route', 'events', 'trips', 'stops', 'summary']);
export const ScheduledReportFormat = z.enum(['xlsx', 'csv']);

export const ScheduledReport = z
  .object({
    id: z.number().int().positive(),
    type: ScheduledReportType,
    description: z.string().nullable(),
    calendarId: z.number().int().describe("Runs when an event of this calendar ends, over the event's period"),
    deviceIds: z.array(z.number().int()),
    groupIds: z.array(z.number().int()),
    recipients: z.array(z.string()).describe('Email addresses the file is sent to'),
    format: ScheduledReportFormat,
    companyId: z.number().int().nullable(),
    attributes: Attributes,
  })
  .meta({ id: 'ScheduledReport' });
export type ScheduledReport = z.infer<typeof ScheduledReport>;

export const ScheduledReportInput = z
  .object({
    type: ScheduledReportType,
    description: z.string().max(500).nullable().default(null),
    calendarId: ref('calendar', z.number().int().positive()),
    deviceIds: z
      .array(ref('device', z.number().int().positive()))
      .max(1000)
      .default([])
      .describe(
        "none: nothing runs until devices or groups are linked (Traccar's web app saves, then links through /permissions/bulk with reportId)",
      ),
    groupIds: z.array(ref('group', z.number().int().positive())).max(100).default([]),
    recipients: z
      .array(z.email().max(254))
      .max(50)
      .default([])
      .describe("Traccar's web app sends none: the report is then mailed to the user who saves it, as Traccar mails its owner"),
    format: ScheduledReportFormat.default('xlsx'),
    companyId: OwnerCompanyInput,
    attributes: Attributes.default({}),
  })
  .meta({ id: 'ScheduledReportInput' });
export type ScheduledReportInput = z.infer<typeof ScheduledReportInput>;

/** Keyword searches the description. */
export const ScheduledReportsQuery = ListQuery;

export const ScheduledReportRunStatus = z.enum(['running', 'sent', 'failed']);

export const ScheduledReportRun = z
  .object({
    id: z.number().int().positive(),
    reportId: z.number().int(),
    from: z.string().describe('Start of the calendar event the run covers (ISO-8601)'),
    to: z.string().describe('Its end'),
    status: ScheduledReportRunStatus,
    items: z.number().int().nullable().describe('Rows in the file sent'),
    error: z.string().nullable(),
    attempts: z
      .number()
      .int()
      .describe('Times the run was started: a run whose instance stopped mid-way is started again after its lease, up to a limit'),
    startedAt: z.string(),
    finishedAt: z.string().nullable(),
  })
  .meta({ id: 'ScheduledReportRun' });
export type ScheduledReportRun = z.infer<typeof ScheduledReportRun>;

export const ScheduledReportRunsQuery = Pagination.extend({ status: ScheduledReportRunStatus.optional() });

const tags = ['reports'];
export const scheduledReportsEndpoints = [
  ...resourceEndpoints({
    id: 'reports.scheduled',
    path: '/reports',
    noun: 'scheduled report',
    kind: 'report',
    tags,
    entity: ScheduledReport,
    input: ScheduledReportInput,
    query: ScheduledReportsQuery,
    write: trackingWriters,
    companyScoped: true,
    description:
      'A report without deviceIds and groupIds runs nothing until linked (POST /permissions with reportId). It runs once per ' +
      "calendar event, when the event ends, over the event's period, and is emailed to the recipients (the caller when none are given; " +
      'the server needs SMTP_URL; without it runs fail and say so).',
  }),
  defineEndpoint({
    service: 'ops-api',
    id: 'reports.scheduled.runs',
    method: 'get',
    path: '/reports/{id}/runs',
    tags,
    companyScoped: true,
    summary: 'The runs of a scheduled report, newest first',
    access: 'authenticated',
    request: { params: idParam('report'), query: ScheduledReportRunsQuery },
    responses: { 200: { description: 'Runs with their status', schema: z.array(ScheduledReportRun) } },
  }),
] as const;

const reportId = ref('report', z.number().int().positive());
/**
 * A scheduled report's link to a device or a group (Traccar's permission with reportId): the
 * report's own deviceIds and groupIds. The gateway's /permissions forwards these here.
 */
export const ReportLink = z
  .union(
    [
      z.strictObject({ reportId, deviceId: ref('device', z.number().int().positive()) }),
      z.strictObject({ reportId, groupId: ref('group', z.number().int().positive()) }),
    ],
    { error: 'reportId and exactly one of deviceId, groupId' },
  )
  .meta({ id: 'ReportLink' });
export interface ReportLink {
  reportId: number;
  deviceId?: number;
  groupId?: number;
}

const reportLinkQueryId = z.coerce.number().int().min(0).optional().describe('0 = any');
export const ReportLinksQuery = z
  .object({
    reportId: ref('report', reportLinkQueryId),
    deviceId: ref('device', reportLinkQueryId),
    groupId: ref('group', reportLinkQueryId),
    limit: z.coerce.number().int().min(1).max(10000).default(1000),
    offset: z.coerce.number().int().min(0).default(0),
  })
  .refine((q) => (q.deviceId === undefined) !== (q.groupId === undefined), {
    message: 'exactly one of deviceId, groupId is required (0 = any)',
    path: [],
  });

export const reportLinksEndpoints = [
  defineEndpoint({
    service: 'ops-api',
    id: 'reports.links.list',
    method: 'get',
    path: '/reports/links',
    tags,
    companyScoped: true,
    access: 'authenticated',
    summary: 'Links of scheduled reports to devices or groups (Traccar permissions with reportId)',
    request: { query: ReportLinksQuery },
    responses: { 200: { description: 'Links', schema: z.array(ReportLink) } },
  }),
  defineEndpoint({
    service: 'ops-api',
    id: 'reports.links.create',
    method: 'post',
    path: '/reports/links',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Link scheduled reports to devices or groups (all or nothing; an existing link 409, a repeated item 400)',
    request: { body: z.array(ReportLink).min(1).max(1000) },
    responses: { 204: { description: 'Linked', schema: null } },
  }),
  defineEndpoint({
    service: 'ops-api',
    id: 'reports.links.delete',
    method: 'delete',
    path: '/reports/links',
    tags,
    companyScoped: true,
    access: trackingWriters,
    summary: 'Unlink scheduled reports from devices or groups (all or nothing; an absent link 404)',
    request: { body: z.array(ReportLink).min(1).max(1000) },
    responses: { 204: { description: 'Unlinked', schema: null } },
  }),
] as const;
