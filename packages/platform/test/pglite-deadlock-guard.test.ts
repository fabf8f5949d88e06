import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createPgliteDb } from '../src/adapters/db-pglite';
import type { Db } from '../src/adapters/db';

/** PGlite has one connection: a root query from inside a transaction fails fast instead of hanging. */
let db: Db;
beforeAll(async () => {
  db = await createPgliteDb();
});
afterAll(async () => {
  await db.close();
});

describe('PGlite self-deadlock guard', () => {
  it('refuses a root-handle query made inside a transaction, and rolls the transaction back', async () => {
    await db.orm.execute(sql`create table guard_t (n int)`);
    const attempt = db.orm.transaction(async (tx) => {
      await tx.execute(sql`insert into guard_t values (1)`);
      await db.orm.execute(sql`select 1`);
    });
    // drizzle wraps the driver's error ("Failed query: ...") and keeps it as the cause
    const err = await attempt.then(
      () => undefined,
      (e: unknown) => e as Error & { cause?: Error },
    );
    expect(err?.cause?.message ?? err?.message).toMatch(/pass the transaction handle \(tx\)/);
    expect(await db.rows(sql`select count(*)::int as n from guard_t`)).toEqual([{ n: 0 }]);
  });

  it('lets the transaction handle work, and other requests wait their turn rather than fail', async () => {
    let release!: () => void;
    let entered!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const inside = new Promise<void>((r) => (entered = r));
    const tx = db.orm.transaction(async (t) => {
      await t.execute(sql`insert into guard_t values (2)`);
      entered();
      await held;
    });
    const concurrent = db.rows<{ n: number }>(sql`select count(*)::int as n from guard_t`);
    let settled = false;
    void concurrent.finally(() => (settled = true)).catch(() => undefined);
    await inside; // the transaction holds the connection with its row written, the other request asked meanwhile
    expect(settled).toBe(false);
    release();
    await tx;
    expect(await concurrent).toEqual([{ n: 1 }]);
  });

  it('lets work a transaction started and left running query the root handle once it has ended', async () => {
    let later!: Promise<unknown>;
    let ended!: () => void;
    const txEnded = new Promise<void>((r) => (ended = r));
    await db.orm.transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      // continues in the transaction's async context, after the transaction has ended
      later = txEnded.then(() => db.rows(sql`select 2 as n`));
    });
    ended();
    expect(await later).toEqual([{ n: 2 }]);
  });
});
