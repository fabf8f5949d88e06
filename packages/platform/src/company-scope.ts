import { AppError, notFound } from './errors';
import { companyScope, type Identity } from './identity';

/**
 * Company rules for entries owned by a company, or shared (company null: seeded border posts,
 * association routes, catalogue entries). Staff (admin, association, platform dispatchers) see
 * and change every entry; a company caller sees its company's entries and the shared ones, and
 * changes only its company's: a shared entry is writable only by staff, who own it.
 */
export function canSee(companyId: number | null, who: Identity, shared: boolean): boolean {
  const scope = companyScope(who);
  if (scope === undefined) return true;
  return companyId === scope || (shared && companyId === null);
}

/** The company a new or replaced entry belongs to: a company caller's own (any other is refused). */
export function ownerCompany(who: Identity, requested: number | null): number | null {
  const scope = companyScope(who);
  if (scope === undefined) return requested;
  if (who.companyId === null)
    throw new AppError('FORBIDDEN', 'Your account belongs to no company; ask an administrator to attach it to one');
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
