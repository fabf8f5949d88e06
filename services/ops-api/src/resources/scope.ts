import { eq, isNull, or, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { companyScope, type Identity } from '@corridor/platform';

// the company rules every service shares (who sees, who writes, whose company a new entry takes)
export { assertWritable, canSee, ownerCompany } from '@corridor/platform';

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

/** Escaped ILIKE pattern for a keyword. */
export const likePattern = (keyword: string): string => `%${keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
