import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inCI, realPart } from '../src/testing/real-parts';
import { uniqueName } from './adapter-variants';

/** The migrations Job's command (deploy/k8s/base/migrate/job.yaml), run as the Job runs it. */
const postgres = await realPart('postgres');
const cli = fileURLToPath(new URL('../src/migrate-main.ts', import.meta.url));
const fixtures = fileURLToPath(new URL('./fixtures', import.meta.url));
const run = promisify(execFile);

if (postgres)
  describe('migrate-main (the migrations Job)', () => {
    const database = uniqueName('migjob');
    let url = '';
    const admin = () => new pg.Client({ connectionString: postgres!.url });

    beforeAll(async () => {
      const c = admin();
      await c.connect();
      await c.query(`CREATE DATABASE ${database}`);
      await c.end();
      const u = new URL(postgres!.url);
      u.pathname = `/${database}`;
      url = u.toString();
    });

    afterAll(async () => {
      const c = admin();
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`).catch(() => undefined);
      await c.end();
    });

    const migrate = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', cli, ...args], { cwd: fixtures, env: { ...process.env, DATABASE_URL: url } });

    it("applies a service's migrations from the working directory's folder, and again without harm", async () => {
      for (let i = 0; i < 2; i++) {
        const { stdout } = await migrate('--service', 'plain', '--folder', 'migrations-plain');
        expect(stdout).toContain('plain: migrations in');
      }
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      const tables = await c.query<{ n: string }>(
        "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = 'plain_test' AND table_name = 'things'",
      );
      await c.end();
      expect(Number(tables.rows[0]?.n)).toBe(1);
    }, 120_000);

    it('refuses to run without a service name', async () => {
      await expect(migrate('--folder', 'migrations-plain')).rejects.toThrow(/--service <name> is required/);
    }, 120_000);
  });
else
  describe('migrate-main (no PostgreSQL here)', () => {
    it('runs where tools/dev-services provides PostgreSQL (always in CI)', () => {
      expect(inCI()).toBe(false);
    });
  });
