import { defineConfig } from 'drizzle-kit';

// drizzle-kit generate --config drizzle.config.ts writes SQL migrations to ./drizzle from the schema files.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema/index.ts',
  out: './drizzle',
  schemaFilter: ['geofence'],
});
