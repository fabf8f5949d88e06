import type { CompanyRating, RatingGrade, RatingPage, RatingStats } from '@corridor/contracts';
import type { Clock } from '@corridor/platform';
import { periodJson, resolvePeriod } from '../dashboards/period';
import type { RatingsRepository } from './repository';
import { rate } from './score';

export interface RatingsQuery {
  from?: string;
  to?: string;
  companyId?: number;
  grade?: RatingGrade;
  minScore?: number;
  sort: 'score_desc' | 'score_asc' | 'company';
  limit: number;
  offset: number;
}

const mean = (xs: number[]): number | null => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);
const median = (xs: number[]): number | null => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : Math.round(((s[m - 1]! + s[m]!) / 2) * 10) / 10;
};
const meanScore = (xs: (number | null)[]): number | null => {
  const present = xs.filter((x): x is number => x !== null);
  return present.length ? Math.round((present.reduce((a, b) => a + b, 0) / present.length) * 10000) / 10000 : null;
};

/** Ratings are computed on request from PostgreSQL (no cache): they always reflect the latest decisions. */
export function ratingsService(deps: { repo: RatingsRepository; clock: Clock }) {
  const { repo, clock } = deps;

  return {
    /** `scope` is the caller's company (company users) or undefined (association staff). */
    async list(q: RatingsQuery, scope: number | undefined): Promise<RatingPage> {
      const period = resolvePeriod(q, clock.now());
      const companyIds = scope !== undefined ? [scope] : q.companyId !== undefined ? [q.companyId] : undefined;
      if (scope !== undefined && q.companyId !== undefined && q.companyId !== scope) {
        return { items: [], total: 0, limit: q.limit, offset: q.offset, period: periodJson(period) };
      }
      let items = (await repo.figures(period, companyIds)).map((f) => rate(f, period));
      if (q.grade) items = items.filter((r) => r.grade === q.grade);
      if (q.minScore !== undefined) items = items.filter((r) => r.score >= q.minScore!);
      const order: Record<RatingsQuery['sort'], (a: CompanyRating, b: CompanyRating) => number> = {
        score_desc: (a, b) => b.score - a.score || a.companyId - b.companyId,
        score_asc: (a, b) => a.score - b.score || a.companyId - b.companyId,
        company: (a, b) => a.companyId - b.companyId,
      };
      items.sort(order[q.sort]);
      return {
        items: items.slice(q.offset, q.offset + q.limit),
        total: items.length,
        limit: q.limit,
        offset: q.offset,
        period: periodJson(period),
      };
    },

    async stats(q: { from?: string; to?: string }): Promise<RatingStats> {
      const period = resolvePeriod(q, clock.now());
      const ratings = (await repo.figures(period))
        .map((f) => rate(f, period))
        .sort((a, b) => b.score - a.score || a.companyId - b.companyId);
      const scores = ratings.map((r) => r.score);
      const byGrade: Record<RatingGrade, number> = { A: 0, B: 0, C: 0, D: 0, E: 0 };
      for (const r of ratings) byGrade[r.grade] += 1;
      const c = ratings.map((r) => r.components);
      return {
        period: periodJson(period),
        companies: ratings.length,
        averageScore: mean(scores),
        medianScore: median(scores),
        byGrade,
        averageComponentScores: {
          onTimeDelivery: meanScore(c.map((x) => x.onTimeDelivery.score)),
          journeyFlags: meanScore(c.map((x) => x.journeyFlags.score)),
          complaints: meanScore(c.map((x) => x.complaints.score)),
          sanctions: meanScore(c.map((x) => x.sanctions.score)),
        },
        totals: {
          delivered: c.reduce((s, x) => s + x.onTimeDelivery.delivered, 0),
          onTime: c.reduce((s, x) => s + x.onTimeDelivery.onTime, 0),
          flags: c.reduce((s, x) => s + x.journeyFlags.flags, 0),
          complaintsUpheld: c.reduce((s, x) => s + x.complaints.upheld, 0),
          sanctions: c.reduce((s, x) => s + x.sanctions.total, 0),
        },
        best: ratings.slice(0, 5),
        worst: [...ratings].reverse().slice(0, 5),
      };
    },
  };
}
export type RatingsService = ReturnType<typeof ratingsService>;
