import type { Analytics } from '../adapters/analytics';

/** The type of a column of a table of the analytics database, or undefined without that table or column. */
async function columnType(ch: Analytics, table: string, column: string): Promise<string | undefined> {
  const rs = await ch.client.query({
    query: 'SELECT type FROM system.columns WHERE database = {db:String} AND table = {table:String} AND name = {column:String}',
    query_params: { db: ch.database, table, column },
    format: 'JSONEachRow',
  });
  return (await rs.json<{ type: string }>())[0]?.type;
}

/**
 * Layouts older than 0001's, which the services converted at start before migrations were
 * versioned (the predicates are those of that code): positions with String ids (before numeric
 * position ids) or without arrival_rank (before the first arrival was kept), events with a String
 * position_id. 0002 copies their rows.
 */
const OLD_LAYOUTS: { table: string; isOld(ch: Analytics): Promise<boolean> }[] = [
  {
    table: 'positions',
    async isOld(ch) {
      const id = await columnType(ch, 'positions', 'id');
      return id === 'String' || (id !== undefined && (await columnType(ch, 'positions', 'arrival_rank')) === undefined);
    },
  },
  { table: 'events', isOld: async (ch) => (await columnType(ch, 'events', 'position_id')) === 'Nullable(String)' },
];

/**
 * Adopts an installation made before versioned migrations, just before 0001 is applied to it: a
 * table of an older layout is renamed to `<table>_before_0001` (0001 then creates the table anew and
 * 0002 copies the rows over); a table of 0001's layout is left as it is (0001 is all IF NOT EXISTS).
 * Cluster mode came after those layouts, so a cluster never has them.
 */
export async function setAsideOldLayouts(ch: Analytics): Promise<string[]> {
  const setAside: string[] = [];
  for (const { table, isOld } of OLD_LAYOUTS) {
    if (!(await isOld(ch))) continue;
    if (ch.cluster)
      throw new Error(
        `${ch.database}.${table} has a layout from before numeric position ids, which no cluster installation can have: convert it by hand`,
      );
    await ch.client.command({ query: `RENAME TABLE ${ch.database}.${table} TO ${ch.database}.${table}_before_0001` });
    setAside.push(table);
  }
  return setAside;
}
