import { listAgentMcpLinks } from '../../db/agent-mcp-link.repository';
import type { Db } from '../../db/database';
import { findMcpServer } from '../../db/mcp-server.repository';
import { listUsableTools } from '../../db/mcp-tool.repository';
import {
  builtinToolDef,
  toolParameters,
  uniqueToolName,
  type AgentToolDef,
  type BuiltinToolName,
} from '../../domain/agent/agent-tools';

/** Providers accept at most 128 tools in one request. */
export const MAX_AGENT_TOOLS = 128;

/**
 * The tools an agent is offered: its built-in tools, then the usable tools of each enabled linked server (in link
 * order: approved ones, quarantined ones too where the link auto-approves, and an approval evaluation's candidate),
 * each named `<server>__<tool>` and made unique, with the server's raw input schema as parameters.
 */
export async function loadAgentTools(
  db: Db,
  workspaceId: string,
  agentId: string,
  builtins: readonly BuiltinToolName[],
  options: { candidateToolId?: string } = {},
): Promise<AgentToolDef[]> {
  const tools = builtins.map(builtinToolDef);
  const taken = new Set(tools.map((tool) => tool.name));
  for (const link of await listAgentMcpLinks(db, agentId)) {
    if (!link.enabled) continue;
    const server = await findMcpServer(db, workspaceId, link.mcp_server_id);
    if (!server) continue;
    const usable = { autoApprove: link.auto_approve, candidateToolId: options.candidateToolId };
    for (const tool of await listUsableTools(db, server.id, usable)) {
      if (tools.length >= MAX_AGENT_TOOLS) return tools;
      tools.push({
        name: uniqueToolName(server.name, tool.name, taken),
        description: tool.description,
        parameters: toolParameters(tool.input_schema),
        source: {
          kind: 'mcp',
          server_id: server.id,
          server_name: server.name,
          tool_name: tool.name,
          sandbox_real_calls: link.sandbox_real_calls,
          record_cassette: link.record_cassette,
          ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
        },
      });
    }
  }
  return tools;
}
