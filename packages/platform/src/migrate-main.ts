import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createPgDb } from './adapters/db-pg';

/**
 * Applies one service's PostgreSQL migrations and exits: the migrations Job of deploy/k8s runs it
 * once per release, in each service's image (`node --import tsx
 * node_modules/@corridor/platform/src/migrate-main.ts --service journey`, the folder `drizzle` of
 * the image's working directory). Under the same advisory lock as a service's own start-up
 * migration, so a rollout racing the Job finds nothing left to do.
 */
const { values } = parseArgs({ options: { service: { type: 'string' }, folder: { type: 'string', default: 'drizzle' } } });
const url = process.env.DATABASE_URL;
if (!values.service || !/^[a-z][a-z0-9-]*$/.test(values.service)) throw new Error('--service <name> is required (a service folder name)');
if (!url) throw new Error('DATABASE_URL is required');
const folder = resolve(values.folder);
const db = createPgDb(url, { max: 2 });
try {
  await db.migrate(folder, values.service);
  process.stdout.write(`${values.service}: migrations in ${folder} applied\n`);
} finally {
  await db.close();
}
