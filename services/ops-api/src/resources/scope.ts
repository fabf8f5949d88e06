import { eq, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { AppError, companyScope, notFound, type Identity } from '@corridor/platform';

/** Who acts, and the request it came in (for the audit trail). */
export interface Actor {
  identity: Identity;
  requestId: string;
}

/**
 * Company scoping of a table's rows. Staff (admin, association) see every company and may narrow
 * to one; a company caller sees its company's rows, plus shared rows (company null) when the
 * resource has shared entries (catalogue-like resources such as calendars or maintenance).
 */
export function scopeCondition(column: PgColumn, who: Identity, opts: { shared: boolean; requested?: number }): SQL | undefined {
  const scope = companyScope(who);
  if (scope === undefined) return opts.requested !== undefined ? eq(column, opts.requested) : undefined;
  if (opts.requested !== undefined && opts.requested !== scope) return eq(column, -1);
  return opts.shared ? or(eq(column, scope), isNull(column)) : eq(column, scope);
}

export function canSee(companyId: number | null, who: Identity, shared: boolean): boolean {
  const scope = companyScope(who);
  if (scope === undefined) return true;
  return companyId === scope || (shared && companyId === null);
}

/** The company a new or replaced entry belongs to: a company caller's own (any other is refused). */
export function ownerCompany(who: Identity, requested: number | null): number | null {
  const scope = companyScope(who);
  if (scope === undefined) return requested;
  if (who.companyId === null) throw new AppError('FORBIDDEN', 'Your account belongs to no company; ask an administrator to attach it to one');
  if (requested !== null && requested !== scope) {
    throw new AppError('FORBIDDEN', 'You may only manage entries of your own company', { field: 'companyId', companyId: scope });
  }
  return scope;
}

/** A row the caller may change: invisible → 404; a shared entry (company null) changed by a company caller → 403. */
export function assertWritable(row: { companyId: number | null } | undefined, who: Identity, what: string, id: unknown): asserts row {
  if (!row || !canSee(row.companyId, who, true)) throw notFound(what, id);
  const scope = companyScope(who);
  if (scope !== undefined && row.companyId !== scope) {
    throw new AppError('FORBIDDEN', `This ${what.toLowerCase()} is shared by the platform; only staff may change it`);
  }
}

/** Escaped ILIKE pattern for a keyword. */
export const likePattern = (keyword: string): string => `%${keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
