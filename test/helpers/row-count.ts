import type { Db } from '../../db/database';

/** Tables a test counts to show that a refused request wrote nothing. */
export type CountedTable = 'conversations' | 'eval_cases' | 'agents' | 'flows' | 'mcp_servers';

/** How many rows `table` holds now (every workspace's). */
export async function rowCount(db: Db, table: CountedTable): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
