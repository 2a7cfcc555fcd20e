import type { Db } from './database';
import { BY_NAME, keysetPage, type Page, type PageParams } from './keyset-page';
import type { Flow, McpCallToolNode } from './tables/flow.table';

/** Inserts a flow. */
export async function insertFlow(db: Db, workspaceId: string, name: string, nodes: McpCallToolNode[]): Promise<Flow> {
  return db
    .insertInto('flows')
    .values({ workspace_id: workspaceId, name, nodes: JSON.stringify(nodes) })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A workspace's flow by id, else undefined. */
export async function findFlow(db: Db, workspaceId: string, id: string): Promise<Flow | undefined> {
  return db
    .selectFrom('flows')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
}

/** A workspace's flows by name. */
export async function listFlows(db: Db, workspaceId: string, page: PageParams): Promise<Page<Flow>> {
  const query = db.selectFrom('flows').selectAll().where('workspace_id', '=', workspaceId);
  return keysetPage(query, BY_NAME, page);
}

/** Deletes a flow and its runs. */
export async function deleteFlow(db: Db, id: string): Promise<void> {
  await db.deleteFrom('flows').where('id', '=', id).execute();
}
