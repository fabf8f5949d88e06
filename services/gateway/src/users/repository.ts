import { and, count, eq, ilike, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Role } from '@corridor/contracts';
import type { Orm } from '@corridor/platform';
import { users, type NewUserRow, type UserRow } from '../db/schema';

export interface UserFilter {
  keyword?: string;
  companyId?: number;
  role?: Role;
  disabled?: boolean;
  limit: number;
  offset: number;
}

const hasRole = (role: Role): SQL => sql`${role} = any(${users.roles})`;

/** The preferences other services show a user's files and notices in (packages/contracts preferences.ts). */
const DIRECTORY_PREFERENCES = ['speedUnit', 'distanceUnit', 'timezone'] as const;

export function usersRepository(db: Orm) {
  const where = (f: Partial<UserFilter>): SQL | undefined => {
    const parts: (SQL | undefined)[] = [];
    if (f.companyId !== undefined) parts.push(eq(users.companyId, f.companyId));
    if (f.role) parts.push(hasRole(f.role));
    if (f.disabled !== undefined) parts.push(eq(users.disabled, f.disabled));
    if (f.keyword) {
      const k = `%${f.keyword.replace(/[%_\\]/g, (c) => '\\' + c)}%`;
      parts.push(or(ilike(users.name, k), ilike(users.email, k), ilike(users.login, k)));
    }
    return parts.length ? and(...parts) : undefined;
  };
  return {
    async list(f: UserFilter): Promise<UserRow[]> {
      return db.select().from(users).where(where(f)).orderBy(users.id).limit(f.limit).offset(f.offset);
    },
    async get(id: number, tx: Orm = db): Promise<UserRow | undefined> {
      const [r] = await tx.select().from(users).where(eq(users.id, id));
      return r;
    },
    /**
     * Every user's id, company, email, roles and language (the directory other services check user
     * references with, address notices by, and write a notification's sentence in).
     */
    async directory(): Promise<
      { id: number; companyId: number | null; email: string; roles: string[]; language?: string; preferences?: Record<string, unknown> }[]
    > {
      const rows = await db
        .select({ id: users.id, companyId: users.companyId, email: users.email, roles: users.roles, attributes: users.attributes })
        .from(users)
        .orderBy(users.id);
      return rows.map(({ attributes, ...u }) => {
        const preferences = Object.fromEntries(
          DIRECTORY_PREFERENCES.filter((k) => attributes[k] !== undefined).map((k) => [k, attributes[k]]),
        );
        return {
          ...u,
          ...(typeof attributes.language === 'string' ? { language: attributes.language } : {}),
          ...(Object.keys(preferences).length ? { preferences } : {}),
        };
      });
    },
    /** Which of these ids are users. */
    async existingIds(ids: readonly number[], tx: Orm = db): Promise<Set<number>> {
      if (!ids.length) return new Set();
      const rows = await tx
        .select({ id: users.id })
        .from(users)
        .where(inArray(users.id, [...ids]));
      return new Set(rows.map((r) => r.id));
    },
    /** The user whose email or login is this, case-insensitively (how Traccar signs in). */
    async byEmailOrLogin(value: string): Promise<UserRow | undefined> {
      const v = value.trim().toLowerCase();
      const [r] = await db
        .select()
        .from(users)
        .where(or(sql`lower(${users.email}) = ${v}`, sql`lower(${users.login}) = ${v}`))
        .orderBy(sql`lower(${users.email}) = ${v} desc`)
        .limit(1);
      return r;
    },
    async byOidcSubject(subject: string): Promise<UserRow | undefined> {
      const [r] = await db.select().from(users).where(eq(users.oidcSubject, subject));
      return r;
    },
    async insert(values: NewUserRow, tx: Orm = db): Promise<UserRow> {
      const [r] = await tx.insert(users).values(values).returning();
      return r!;
    },
    async update(id: number, values: Partial<NewUserRow>, tx: Orm = db): Promise<UserRow | undefined> {
      const [r] = await tx
        .update(users)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(users.id, id))
        .returning();
      return r;
    },
    async delete(id: number, tx: Orm = db): Promise<UserRow | undefined> {
      const [r] = await tx.delete(users).where(eq(users.id, id)).returning();
      return r;
    },
    async recordLogin(id: number, at: Date): Promise<void> {
      await db.update(users).set({ lastLoginAt: at }).where(eq(users.id, id));
    },
    /** Enabled administrators other than `exceptId`. */
    async countActiveAdmins(exceptId?: number, tx: Orm = db): Promise<number> {
      const [r] = await tx
        .select({ n: count() })
        .from(users)
        .where(and(hasRole('admin'), eq(users.disabled, false), exceptId === undefined ? undefined : ne(users.id, exceptId)));
      return r?.n ?? 0;
    },
  };
}
export type UsersRepository = ReturnType<typeof usersRepository>;
