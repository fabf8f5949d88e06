import { defineConfig } from 'drizzle-kit';

// `pnpm --filter @corridor/gateway db:generate` writes SQL migrations to ./drizzle from the schema files.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  schemaFilter: ['identity'],
});
