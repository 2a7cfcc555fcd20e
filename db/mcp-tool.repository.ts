import { sql } from 'kysely';
import { nextApproval, PRE_PIN_APPROVAL, type ToolDefinition } from '../domain/mcp/tool-approval';
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
  title?: string;
  annotations?: Record<string, unknown>;
  icons?: unknown[];
  /** The definition hash covers exactly this (see lib/outbound/mcp/tool-definition.ts). */
  definition: ToolDefinition;
  hash: string;
}

/** Which quarantined tools a caller may use besides the approved ones. */
export interface UsableToolsOptions {
  /** The link opts into auto-approval: every tool of the server, quarantined ones with their newest definitions. */
  autoApprove?: boolean;
  /** Approve with evaluation: this one quarantined tool (a tool row id) with its candidate definition. */
  candidateToolId?: string;
}

const UPSERT_CHUNK = 500;

/** A server's stored tools by name. */
export async function listServerTools(db: Db, serverId: string): Promise<McpTool[]> {
  return db.selectFrom('mcp_tools').selectAll().where('server_id', '=', serverId).orderBy('name').execute();
}

/** The tools of a server that flows, agent runs and the gateway may use: approved and not quarantined, by name. */
export async function listUsableTools(db: Db, serverId: string, options: UsableToolsOptions = {}): Promise<McpTool[]> {
  let query = db.selectFrom('mcp_tools').selectAll().where('server_id', '=', serverId);
  const { autoApprove, candidateToolId } = options;
  if (!autoApprove)
    query = query.where((eb) =>
      candidateToolId
        ? eb.or([eb('status', '=', 'approved'), eb('id', '=', candidateToolId)])
        : eb('status', '=', 'approved'),
    );
  return query.orderBy('name').execute();
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
 * writes the same rows again. A new or changed tool is quarantined unless this is the server's first sync (see
 * `nextApproval`). Returns what changed since the previous sync.
 */
export async function saveToolSync(
  db: Db,
  serverId: string,
  tools: ToolDescriptorInput[],
  syncedAt: Date,
): Promise<ToolChanges> {
  return db.transaction().execute(async (trx) => {
    const server = await trx
      .selectFrom('mcp_servers')
      .select('synced_at')
      .where('id', '=', serverId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const previous = await trx
      .selectFrom('mcp_tools')
      .select(['name', 'hash', 'status', 'approved_hash', 'approved_definition'])
      .where('server_id', '=', serverId)
      .execute();
    const firstSync = server.synced_at === null && previous.length === 0;
    const previousByName = new Map(previous.map((t) => [t.name, t]));
    const approvals = tools.map((tool) =>
      nextApproval(previousByName.get(tool.name), tool.hash, tool.definition, firstSync),
    );
    const statusOf = new Map(tools.map((tool, i) => [tool.name, approvals[i].status]));
    // A tool stored before 0028 has a fingerprint of the old kind: kept approved, it did not change.
    const unchangedPrePin = (t: (typeof previous)[number]): boolean =>
      t.approved_hash === PRE_PIN_APPROVAL && statusOf.get(t.name) === 'approved';
    const nextHashes = new Map(tools.map((t) => [t.name, t.hash]));
    const changes = diffTools(
      new Map(previous.map((t) => [t.name, (unchangedPrePin(t) && nextHashes.get(t.name)) || t.hash])),
      nextHashes,
    );
    if (changes.removed.length > 0) {
      await trx
        .deleteFrom('mcp_tools')
        .where('server_id', '=', serverId)
        .where('name', 'in', changes.removed)
        .execute();
    }
    for (let start = 0; start < tools.length; start += UPSERT_CHUNK) {
      const rows = tools.slice(start, start + UPSERT_CHUNK).map((tool, i) => {
        const approval = approvals[start + i];
        return {
          server_id: serverId,
          name: tool.name,
          description: tool.description,
          parameters: JSON.stringify(tool.parameters),
          input_schema: JSON.stringify(tool.inputSchema ?? {}),
          output_schema: tool.outputSchema === undefined ? null : JSON.stringify(tool.outputSchema),
          hash: tool.hash,
          title: tool.title ?? null,
          annotations: tool.annotations === undefined ? null : JSON.stringify(tool.annotations),
          icons: tool.icons === undefined ? null : JSON.stringify(tool.icons),
          status: approval.status,
          approved_hash: approval.approved_hash,
          approved_definition: approval.approved_definition && JSON.stringify(approval.approved_definition),
        };
      });
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
            title: eb.ref('excluded.title'),
            annotations: eb.ref('excluded.annotations'),
            icons: eb.ref('excluded.icons'),
            status: eb.ref('excluded.status'),
            approved_hash: eb.ref('excluded.approved_hash'),
            approved_definition: eb.ref('excluded.approved_definition'),
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
