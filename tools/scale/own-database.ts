import pg from 'pg';

/** A database of a run's own on the environment's PostgreSQL server (one left by a killed run of that name dropped first): its URL. */
export async function createDatabase(url: string, name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops a run's database, closing its connections (nothing when it is gone already). */
export async function dropDatabase(url: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined);
  await admin.end();
}
