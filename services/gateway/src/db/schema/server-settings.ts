import { integer, jsonb } from 'drizzle-orm/pg-core';
import type { ServerUpdate } from '@corridor/contracts';
import { timestamps } from './columns';
import { identity } from './identity-schema';

/** The server settings PUT /server writes (one row, id 1); GET /server answers the defaults until then. */
export const serverSettings = identity.table('server_settings', {
  id: integer('id').primaryKey(),
  settings: jsonb('settings').$type<ServerUpdate>().notNull(),
  ...timestamps,
});
