import crypto from 'node:crypto';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import type { Db } from '../db/database';
import { listUsableTools } from '../db/mcp-tool.repository';
import type { McpTool, ToolOverride } from '../db/tables/mcp.table';
import { toolAllowed, toolPrefixOf } from '../domain/mcp/gateway-policy';
import type { LinkedServer } from './forward/upstream';

/** One upstream tool as the gateway exposes it, with the link's policy for it. */
export interface ExposedTool {
  exposedName: string;
  serverId: string;
  serverName: string;
  tool: McpTool;
  /** In the link's allowlist: listed and callable; outside it, a call is refused with a message saying so. */
  allowed: boolean;
  override: ToolOverride;
  /** The link opts into auto-approval: quarantined tools are exposed and their live definitions are not checked. */
  autoApprove: boolean;
}

/** An agent's tools through the gateway, by exposed name, and a fingerprint that changes whenever they do. */
export interface AgentToolCatalog {
  tools: Map<string, ExposedTool>;
  fingerprint: string;
  /** The enabled linked servers, oldest link first: what resources and prompts come from, and the upstream sessions a
   * gateway session may keep open. */
  links: LinkedServer[];
}

/** The enabled links of an agent with their servers' names, oldest link first. */
async function enabledLinks(db: Db, agentId: string) {
  return db
    .selectFrom('agent_mcp_servers as l')
    .innerJoin('mcp_servers as s', 's.id', 'l.mcp_server_id')
    .select([
      's.id as serverId',
      's.name as serverName',
      's.transport',
      's.config_changed_at',
      'l.tools',
      'l.tool_prefix',
      'l.tool_overrides',
      'l.auto_approve',
    ])
    .where('l.agent_id', '=', agentId)
    .where('l.enabled', '=', true)
    .orderBy('l.created_at')
    .orderBy('s.id')
    .execute();
}

/**
 * Reads an agent's enabled links and their servers' usable tools. Two links that would expose the same name (empty or
 * equal prefixes): the older link's tool keeps it, the other is not exposed.
 */
export async function loadAgentTools(db: Db, agentId: string): Promise<AgentToolCatalog> {
  const tools = new Map<string, ExposedTool>();
  const links: LinkedServer[] = [];
  for (const link of await enabledLinks(db, agentId)) {
    const prefix = toolPrefixOf(link.serverName, link.tool_prefix);
    links.push({
      serverId: link.serverId,
      serverName: link.serverName,
      prefix,
      version: link.config_changed_at.toISOString(),
      pooled: link.transport === 'stdio_curated',
    });
    for (const tool of await listUsableTools(db, link.serverId, { autoApprove: link.auto_approve })) {
      const exposedName = `${prefix}${tool.name}`;
      if (tools.has(exposedName)) continue;
      const allowed = toolAllowed(link.tools, tool.name);
      const override = link.tool_overrides[tool.name] ?? {};
      tools.set(exposedName, {
        exposedName,
        serverId: link.serverId,
        serverName: link.serverName,
        tool,
        allowed,
        override,
        autoApprove: link.auto_approve,
      });
    }
  }
  const hash = crypto.createHash('sha256');
  for (const t of tools.values())
    hash.update(JSON.stringify([t.exposedName, t.serverId, t.tool.hash, t.allowed, t.override]));
  hash.update(JSON.stringify(links));
  return { tools, fingerprint: hash.digest('hex'), links };
}

/** The MCP definition of an exposed tool (a `read_only` override marks it `readOnlyHint`). */
export function toolDefinition(exposed: ExposedTool): Tool {
  const { tool, override } = exposed;
  return {
    name: exposed.exposedName,
    description: tool.description,
    inputSchema: tool.input_schema as Tool['inputSchema'],
    ...(tool.output_schema ? { outputSchema: tool.output_schema as Tool['outputSchema'] } : {}),
    ...(override.read_only === undefined ? {} : { annotations: { readOnlyHint: override.read_only } }),
  };
}
