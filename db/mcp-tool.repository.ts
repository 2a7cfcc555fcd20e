import { sql } from 'kysely';
import { diffTools, type ToolChanges } from '../domain/mcp/tool-changes';
import type { ToolParameter } from '../domain/mcp/tool-parameters';
import type { Db } from './database';
import { BY_NAME, keysetPage, type Page, type PageParams } from './keyset-page';
import { freshStatus } from './mcp-server.repository';
import type { McpTool } from './tables/mcp.table';

/** A descriptor as a sync produced it, with the fingerprint that detects changes. */
export interface ToolDescriptorInput {
  name: string;
  description: string;
  parameters: ToolParameter[];
  inputSchema: unknown;
  /** The tool's `outputSchema` (its `structuredContent`), when it declares one. */
  outputSchema?: unknown;
  hash: string;
}

const UPSERT_CHUNK = 500;

/** A server's stored tools by name. */
export async function listServerTools(db: Db, serverId: string): Promise<McpTool[]> {
  return db.selectFrom('mcp_tools').selectAll().where('server_id', '=', serverId).orderBy('name').execute();
}

/** One page of a server's stored tools, by name. */
export async function pageServerTools(db: Db, serverId: string, page: PageParams): Promise<Page<McpTool>> {
  return keysetPage(db.selectFrom('mcp_tools').selectAll().where('server_id', '=', serverId), BY_NAME, page);
}

/** The stored tools of a server among `names`. */
export async function findServerTools(db: Db, serverId: string, names: string[]): Promise<McpTool[]> {
  if (names.length === 0) return [];
  return db.selectFrom('mcp_tools').selectAll().where('server_id', '=', serverId).where('name', 'in', names).execute();
}

/**
 * Replaces a server's tool set with a sync's result and marks it connected, in one transaction; a retried sync
 * writes the same rows again. Returns what changed since the previous sync.
 */
export async function saveToolSync(
  db: Db,
  serverId: string,
  tools: ToolDescriptorInput[],
  syncedAt: Date,
): Promise<ToolChanges> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('mcp_servers').select('id').where('id', '=', serverId).forUpdate().executeTakeFirstOrThrow();
    const previous = await trx
      .selectFrom('mcp_tools')
      .select(['name', 'hash'])
      .where('server_id', '=', serverId)
      .execute();
    const changes = diffTools(
      new Map(previous.map((t) => [t.name, t.hash])),
      new Map(tools.map((t) => [t.name, t.hash])),
    );
    if (changes.removed.length > 0) {
      await trx
        .deleteFrom('mcp_tools')
        .where('server_id', '=', serverId)
        .where('name', 'in', changes.removed)
        .execute();
    }
    for (let start = 0; start < tools.length; start += UPSERT_CHUNK) {
      const rows = tools.slice(start, start + UPSERT_CHUNK).map((tool) => ({
        server_id: serverId,
        name: tool.name,
        description: tool.description,
        parameters: JSON.stringify(tool.parameters),
        input_schema: JSON.stringify(tool.inputSchema ?? {}),
        output_schema: tool.outputSchema === undefined ? null : JSON.stringify(tool.outputSchema),
        hash: tool.hash,
      }));
      await trx
        .insertInto('mcp_tools')
        .values(rows)
        .onConflict((oc) =>
          oc.columns(['server_id', 'name']).doUpdateSet((eb) => ({
            description: eb.ref('excluded.description'),
            parameters: eb.ref('excluded.parameters'),
            input_schema: eb.ref('excluded.input_schema'),
            output_schema: eb.ref('excluded.output_schema'),
            hash: eb.ref('excluded.hash'),
            updated_at: sql<Date>`now()`,
          })),
        )
        .execute();
    }
    await trx
      .updateTable('mcp_servers')
      .set({ ...freshStatus('connected'), synced_at: syncedAt })
      .where('id', '=', serverId)
      .execute();
    return changes;
  });
}
