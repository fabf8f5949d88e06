import { z } from 'zod';
import { ref } from './references';
import { defineEndpoint } from './endpoint';
import { Pagination } from './common';
import { associationRoles } from './roles';
import { CoveredPeriod, PeriodQuery } from './dashboards';

export const RatingGrade = z.enum(['A', 'B', 'C', 'D', 'E']);
export type RatingGrade = z.infer<typeof RatingGrade>;

const Score = z.number().min(0).max(1).describe('0 (worst) to 1 (best)');

/** Each component's raw figures, its score in [0, 1] and the weight it had in the overall score. */
export const RatingComponents = z
  .object({
    onTimeDelivery: z.object({
      delivered: z.number().int().describe('shipments delivered in the period with a planned delivery date'),
      onTime: z.number().int().describe('of those, delivered by the planned date'),
      score: Score.nullable().describe('onTime / delivered; null when nothing was delivered (weight redistributed)'),
      weight: z.number(),
    }),
    journeyFlags: z.object({
      flags: z.number().int().describe("journey flags opened on the company's trucks in the period"),
      trucks: z.number().int().describe('registered trucks (devices) of the company'),
      score: Score.describe('exp(−flags per truck / 5)'),
      weight: z.number(),
    }),
    complaints: z.object({
      upheld: z.number().int().describe('resolved (or closed after resolution) complaints filed in the period'),
      pending: z.number().int().describe('open or under review'),
      dismissed: z.number().int(),
      score: Score.describe('exp(−(upheld + pending / 2) / 4)'),
      weight: z.number(),
    }),
    sanctions: z.object({
      total: z.number().int().describe('sanctions in force at some point in the period'),
      points: z.number().describe('severity points: warning 1, training 1, probation 2, fine 2, suspension 4, blacklist 8'),
      score: Score.describe('exp(−points / 6)'),
      weight: z.number(),
    }),
  })
  .meta({ id: 'RatingComponents' });
export type RatingComponents = z.infer<typeof RatingComponents>;

export const CompanyRating = z
  .object({
    companyId: z.number().int(),
    companyName: z.string().nullable(),
    score: z.number().min(0).max(100).describe('weighted mean of the component scores × 100, one decimal'),
    grade: RatingGrade.describe('A ≥ 85, B ≥ 70, C ≥ 55, D ≥ 40, else E'),
    components: RatingComponents,
    period: CoveredPeriod,
  })
  .meta({ id: 'CompanyRating' });
export type CompanyRating = z.infer<typeof CompanyRating>;

export const RatingsQuery = Pagination.extend(PeriodQuery.shape).extend({
  companyId: ref('company', z.coerce.number().int().positive()).optional(),
  grade: RatingGrade.optional(),
  minScore: z.coerce.number().min(0).max(100).optional(),
  sort: z.enum(['score_desc', 'score_asc', 'company']).default('score_desc'),
});

export const RatingPage = z
  .object({
    items: z.array(CompanyRating),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
    period: CoveredPeriod,
  })
  .meta({ id: 'RatingPage' });
export type RatingPage = z.infer<typeof RatingPage>;

export const RatingStats = z
  .object({
    period: CoveredPeriod,
    companies: z.number().int(),
    averageScore: z.number().nullable(),
    medianScore: z.number().nullable(),
    byGrade: z.record(RatingGrade, z.number().int()),
    averageComponentScores: z.object({
      onTimeDelivery: z.number().nullable(),
      journeyFlags: z.number().nullable(),
      complaints: z.number().nullable(),
      sanctions: z.number().nullable(),
    }),
    totals: z.object({
      delivered: z.number().int(),
      onTime: z.number().int(),
      flags: z.number().int(),
      complaintsUpheld: z.number().int(),
      sanctions: z.number().int(),
    }),
    best: z.array(CompanyRating).describe('up to 5, best first'),
    worst: z.array(CompanyRating).describe('up to 5, worst first'),
  })
  .meta({ id: 'RatingStats' });
export type RatingStats = z.infer<typeof RatingStats>;

const tags = ['ratings'];
export const ratingsEndpoints = [
  defineEndpoint({
    id: 'ratings.list',
    method: 'get',
    path: '/ratings',
    service: 'ops-api',
    tags,
    companyScoped: true,
    summary: 'Company ratings with their components',
    description:
      'Computed for the period from on-time delivery, journey flags, complaints and sanctions. A company user sees only their company.',
    access: 'authenticated',
    request: { query: RatingsQuery },
    responses: { 200: { description: 'A page of ratings', schema: RatingPage } },
  }),
  defineEndpoint({
    id: 'ratings.stats',
    method: 'get',
    path: '/ratings/stats',
    service: 'ops-api',
    tags,
    summary: 'Rating distribution and averages for the period',
    access: associationRoles,
    request: { query: PeriodQuery },
    responses: { 200: { description: 'Statistics', schema: RatingStats } },
  }),
] as const;
