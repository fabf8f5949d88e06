import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { pgSchema, serial, text } from 'drizzle-orm/pg-core';
import type { Db } from '../src/adapters/db';
import { dbVariants } from './adapter-variants';

const variants = await dbVariants();
const migrations = fileURLToPath(new URL('./fixtures/migrations', import.meta.url));
const things = pgSchema('contract_test').table('things', { id: serial('id').primaryKey(), name: text('name').notNull() });

describe.each(variants)('Db contract: $name', ({ create }) => {
  let db: Db;
  afterAll(async () => {
    await db?.close();
  });

  it('applies migrations idempotently and runs drizzle queries', async () => {
    db = await create();
    await db.migrate(migrations, 'contract');
    await db.migrate(migrations, 'contract'); // second run is a no-op
    await db.orm.delete(things);
    const [row] = await db.orm.insert(things).values({ name: 'first' }).returning();
    expect(row?.name).toBe('first');
    const all = await db.orm.select().from(things);
    expect(all.map((t) => t.name)).toEqual(['first']);
  }, 180_000); // a ceiling, not a measure: PGlite's WASM start and migrations passed 30 s at load 40

  it('rolls back a failed transaction', async () => {
    await expect(
      db.orm.transaction(async (tx) => {
        await tx.insert(things).values({ name: 'rolled back' });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const names = (await db.orm.select().from(things)).map((t) => t.name);
    expect(names).not.toContain('rolled back');
  });

  it('returns raw rows and pings', async () => {
    const rows = await db.rows<{ n: number }>(sql`select 41 + 1 as n`);
    expect(Number(rows[0]?.n)).toBe(42);
    await expect(db.ping()).resolves.toBeUndefined();
  });
});
