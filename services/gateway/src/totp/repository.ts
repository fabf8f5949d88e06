import { and, eq, isNotNull, isNull, lt, or } from 'drizzle-orm';
import type { Orm } from '@corridor/platform';
import { users, type UserRow } from '../db/schema';

/** The TOTP columns of identity.users; each write is one conditional UPDATE, so two instances cannot race. */
export function totpRepository(db: Orm) {
  return {
    /** Sets the key of a user who has none; the confirming code's step counts as used. Undefined when a key exists. */
    async activate(userId: number, key: string, step: number, tx: Orm = db): Promise<UserRow | undefined> {
      const [r] = await tx
        .update(users)
        .set({ totpKey: key, totpLastStep: step, updatedAt: new Date() })
        .where(and(eq(users.id, userId), isNull(users.totpKey)))
        .returning();
      return r;
    },
    /** Removes the key; undefined when the user had none. */
    async remove(userId: number, tx: Orm = db): Promise<UserRow | undefined> {
      const [r] = await tx
        .update(users)
        .set({ totpKey: null, totpLastStep: null, updatedAt: new Date() })
        .where(and(eq(users.id, userId), isNotNull(users.totpKey)))
        .returning();
      return r;
    },
    /**
     * Marks `step` used for this key when it is later than the last used step (RFC 6238 §5.2: a
     * code is accepted once). False when that step, or a later one, was used already.
     */
    async claimStep(userId: number, key: string, step: number): Promise<boolean> {
      const claimed = await db
        .update(users)
        .set({ totpLastStep: step })
        .where(and(eq(users.id, userId), eq(users.totpKey, key), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
        .returning({ id: users.id });
      return claimed.length === 1;
    },
  };
}
export type TotpRepository = ReturnType<typeof totpRepository>;
