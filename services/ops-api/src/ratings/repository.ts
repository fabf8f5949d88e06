import { and, count, eq, gte, inArray, isNotNull, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { companies, companyFlags, complaints, devices, disciplinaryRecords, shipments } from '../db/schema';

export interface Period {
  from: Date;
  to: Date;
}

/** Per-company raw figures for a period; ratings/score.ts turns them into scores. */
export interface CompanyFigures {
  companyId: number;
  name: string | null;
  delivered: number;
  onTime: number;
  flags: number;
  trucks: number;
  complaintsUpheld: number;
  complaintsPending: number;
  complaintsDismissed: number;
  sanctions: { sanctionType: string }[];
}

const int = (v: unknown): number => Number(v ?? 0);

/**
 * Reads what ratings are computed from, one grouped query per source: shipments (delivered vs
 * planned arrival), journey flags (company_flags, fed by events.v1), trucks (devices), complaints
 * and sanctions. Companies are the registered ones (associations are not rated).
 */
export function ratingsRepository(db: Orm) {
  return {
    async figures(p: Period, companyIds?: number[]): Promise<CompanyFigures[]> {
      const rated = await db
        .select({ id: companies.id, name: companies.name })
        .from(companies)
        .where(and(ne(companies.kind, 'association'), companyIds ? inArray(companies.id, companyIds) : undefined))
        .orderBy(companies.id);
      if (!rated.length) return [];
      const ids = rated.map((c) => c.id);

      const deliveries = await db
        .select({
          companyId: shipments.companyId,
          delivered: count(),
          onTime: sql<number>`count(*) filter (where ${shipments.actualArrival} <= ${shipments.plannedArrival})`,
        })
        .from(shipments)
        .where(
          and(
            inArray(shipments.companyId, ids),
            eq(shipments.status, 'delivered'),
            isNotNull(shipments.plannedArrival),
            gte(shipments.actualArrival, p.from),
            lte(shipments.actualArrival, p.to),
          ),
        )
        .groupBy(shipments.companyId);

      const flags = await db
        .select({ companyId: companyFlags.companyId, n: count() })
        .from(companyFlags)
        .where(and(inArray(companyFlags.companyId, ids), gte(companyFlags.openedAt, p.from), lte(companyFlags.openedAt, p.to)))
        .groupBy(companyFlags.companyId);

      const trucks = await db
        .select({ companyId: devices.companyId, n: count() })
        .from(devices)
        .where(inArray(devices.companyId, ids))
        .groupBy(devices.companyId);

      const filed = await db
        .select({
          companyId: complaints.companyId,
          upheld: sql<number>`count(*) filter (where ${complaints.outcome} = 'resolved')`,
          dismissed: sql<number>`count(*) filter (where ${complaints.outcome} = 'dismissed')`,
          pending: sql<number>`count(*) filter (where ${complaints.status} in ('open', 'under_review'))`,
        })
        .from(complaints)
        .where(and(inArray(complaints.companyId, ids), gte(complaints.createdAt, p.from), lte(complaints.createdAt, p.to)))
        .groupBy(complaints.companyId);

      const sanctions = await db
        .select({ companyId: disciplinaryRecords.companyId, sanctionType: disciplinaryRecords.sanctionType })
        .from(disciplinaryRecords)
        .where(
          and(
            inArray(disciplinaryRecords.companyId, ids),
            lte(disciplinaryRecords.startsAt, p.to),
            or(isNull(disciplinaryRecords.endsAt), gte(disciplinaryRecords.endsAt, p.from)),
          ),
        );

      const by = <T extends { companyId: number | null }>(rows: T[]) => new Map(rows.map((r) => [r.companyId, r]));
      const d = by(deliveries),
        f = by(flags),
        t = by(trucks),
        c = by(filed);
      return rated.map((co) => ({
        companyId: co.id,
        name: co.name,
        delivered: int(d.get(co.id)?.delivered),
        onTime: int(d.get(co.id)?.onTime),
        flags: int(f.get(co.id)?.n),
        trucks: int(t.get(co.id)?.n),
        complaintsUpheld: int(c.get(co.id)?.upheld),
        complaintsPending: int(c.get(co.id)?.pending),
        complaintsDismissed: int(c.get(co.id)?.dismissed),
        sanctions: sanctions.filter((s) => s.companyId === co.id),
      }));
    },
  };
}
export type RatingsRepository = ReturnType<typeof ratingsRepository>;
