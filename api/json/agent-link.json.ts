import { z } from 'zod';
import type { AgentMcpServer } from '../../db/tables/mcp.table';

export const linkJson = z.object({
  agent_id: z.string(),
  mcp_server_id: z.string(),
  enabled: z.boolean(),
  sandbox_real_calls: z.boolean(),
  record_cassette: z.boolean().describe("live eval runs record this server's real responses into the set's cassette"),
  tools: z.array(z.string()).describe('the gateway allowlist: ["*"] or upstream tool names'),
  tool_prefix: z.string().nullable().describe('before each tool name in the gateway; null: "<server name>__"'),
  tool_overrides: z
    .record(z.string(), z.object({ timeout_ms: z.number().optional(), read_only: z.boolean().optional() }))
    .describe('per upstream tool: the gateway timeout_ms and read_only'),
});

/** The API shape of an agent–server link. */
export function toLinkJson(row: AgentMcpServer): z.infer<typeof linkJson> {
  return {
    agent_id: row.agent_id,
    mcp_server_id: row.mcp_server_id,
    enabled: row.enabled,
    sandbox_real_calls: row.sandbox_real_calls,
    record_cassette: row.record_cassette,
    tools: row.tools,
    tool_prefix: row.tool_prefix,
    tool_overrides: row.tool_overrides,
  };
}
