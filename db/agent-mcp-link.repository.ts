import { sql } from 'kysely';
import type { Db } from './database';
import { keysetPage, type KeysetOrder, type Page, type PageParams } from './keyset-page';
import type { AgentMcpServer } from './tables/mcp.table';

/**
 * A link's sandbox opt-ins (real calls in live eval runs, recording their responses into the set's cassette) and its
 * gateway policy (allowlist, tool prefix, per-tool overrides).
 */
export type LinkOptIns = Partial<
  Pick<AgentMcpServer, 'sandbox_real_calls' | 'record_cassette' | 'tools' | 'tool_prefix' | 'tool_overrides'>
>;

// jsonb columns are written as JSON text.
const JSON_COLUMNS = new Set(['tools', 'tool_overrides']);

/** Links a server to an agent, or updates `enabled` (and the opt-ins given) of an existing link. */
export async function upsertAgentMcpLink(
  db: Db,
  agentId: string,
  serverId: string,
  enabled: boolean,
  optIns: LinkOptIns = {},
): Promise<AgentMcpServer> {
  const optIn = Object.fromEntries(
    Object.entries(optIns)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, JSON_COLUMNS.has(key) ? JSON.stringify(value) : value]),
  );
  return db
    .insertInto('agent_mcp_servers')
    .values({ agent_id: agentId, mcp_server_id: serverId, enabled, ...optIn })
    .onConflict((oc) =>
      oc.columns(['agent_id', 'mcp_server_id']).doUpdateSet({ enabled, ...optIn, updated_at: sql<Date>`now()` }),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** An agent's server links, oldest first. */
export async function listAgentMcpLinks(db: Db, agentId: string): Promise<AgentMcpServer[]> {
  return db.selectFrom('agent_mcp_servers').selectAll().where('agent_id', '=', agentId).orderBy('created_at').execute();
}

const LINK_ORDER: KeysetOrder = {
  keys: [
    { ref: 'created_at', kind: 'time' },
    { ref: 'mcp_server_id', kind: 'uuid' },
  ],
  direction: 'asc',
};

/** One page of an agent's server links, oldest first. */
export async function pageAgentMcpLinks(db: Db, agentId: string, page: PageParams): Promise<Page<AgentMcpServer>> {
  return keysetPage(db.selectFrom('agent_mcp_servers').selectAll().where('agent_id', '=', agentId), LINK_ORDER, page);
}

/** Removes a link; true when one existed. */
export async function deleteAgentMcpLink(db: Db, agentId: string, serverId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('agent_mcp_servers')
    .where('agent_id', '=', agentId)
    .where('mcp_server_id', '=', serverId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
