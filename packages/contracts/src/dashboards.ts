import { z } from 'zod';
import { defineEndpoint } from './endpoint';
import { IsoDateTime } from './common';
import { associationRoles } from './roles';

/** The time span a figure covers (ISO 8601, UTC): every dashboard and rating figure carries one. */
export const CoveredPeriod = z.object({ from: IsoDateTime, to: IsoDateTime }).meta({ id: 'CoveredPeriod' });
export type CoveredPeriod = z.infer<typeof CoveredPeriod>;

/** A period given in a query; both ends optional (defaults: the last 30 days up to now). */
export const PeriodQuery = z.object({
  from: IsoDateTime.optional().describe('start of the period (default: 30 days before `to`)'),
  to: IsoDateTime.optional().describe('end of the period (default: now)'),
});

export const ComplianceCountry = z.enum(['KE', 'TZ']);
export type ComplianceCountry = z.infer<typeof ComplianceCountry>;

export const ComplianceDashboard = z
  .object({
    country: ComplianceCountry,
    period: CoveredPeriod.describe('the requested period'),
    generatedAt: IsoDateTime,
    companies: z.number().int().describe('companies registered in the country (the scope of the company figures)'),
    activeJourneys: z.object({
      period: CoveredPeriod,
      active: z
        .number()
        .int()
        .describe("journeys of the country's trucks started by the end of the period and not completed or cancelled by then"),
      withActivity: z.number().int().describe('distinct journeys with any event in the period'),
      trucksReporting: z.number().int().describe('distinct trucks with journey events in the period'),
    }),
    flagsByTypeAndWeek: z.object({
      period: CoveredPeriod,
      total: z.number().int(),
      items: z.array(z.object({ weekStart: z.iso.date().describe('Monday, UTC'), flagType: z.string(), count: z.number().int() })),
    }),
    certificates: z.object({
      period: CoveredPeriod.describe('applications made in the period'),
      pending: z.number().int().describe('applied or submitted, awaiting a decision'),
      approved: z.number().int(),
      rejected: z.number().int(),
    }),
    complaintsOpen: z.object({
      period: CoveredPeriod.describe('filed by the end of the period; counted as they stand now'),
      open: z.number().int(),
      underReview: z.number().int(),
      total: z.number().int(),
    }),
    borderDwell: z.object({
      period: CoveredPeriod.describe('exits in the period'),
      items: z.array(
        z.object({
          geofenceId: z.string(),
          name: z.string(),
          exits: z.number().int(),
          averageDwellSeconds: z.number(),
          medianDwellSeconds: z.number(),
        }),
      ),
    }),
    companiesWithMostViolations: z.object({
      period: CoveredPeriod,
      items: z.array(
        z.object({
          companyId: z.number().int(),
          name: z.string().nullable(),
          flags: z.number().int(),
          complaints: z.number().int().describe('complaints filed against the company in the period and not dismissed'),
          sanctions: z.number().int().describe('sanctions recorded in the period'),
          total: z.number().int(),
        }),
      ),
    }),
  })
  .meta({ id: 'ComplianceDashboard' });
export type ComplianceDashboard = z.infer<typeof ComplianceDashboard>;

export const DashboardQuery = PeriodQuery.extend({
  top: z.coerce.number().int().min(1).max(50).default(10).describe('how many companies in companiesWithMostViolations'),
});

const tags = ['association'];
const description =
  'Figures for the companies registered in the country (flags, journeys, certificates, complaints, violations) and for ' +
  'the border posts on its side (dwell from geofenceExit events whose fence is in the country). Each figure carries its period.';
export const dashboardsEndpoints = [
  defineEndpoint({
    id: 'compliance.kenya',
    method: 'get',
    path: '/association/compliance/kenya/dashboard',
    service: 'ops-api',
    tags,
    summary: 'Kenya compliance dashboard',
    description,
    access: associationRoles,
    request: { query: DashboardQuery },
    responses: { 200: { description: 'The dashboard', schema: ComplianceDashboard } },
  }),
  defineEndpoint({
    id: 'compliance.tanzania',
    method: 'get',
    path: '/association/compliance/tanzania/dashboard',
    service: 'ops-api',
    tags,
    summary: 'Tanzania compliance dashboard',
    description,
    access: associationRoles,
    request: { query: DashboardQuery },
    responses: { 200: { description: 'The dashboard', schema: ComplianceDashboard } },
  }),
] as const;
