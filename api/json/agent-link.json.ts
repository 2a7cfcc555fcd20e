import { z } from 'zod';
import type { AgentMcpServer } from '../../db/tables/mcp.table';

export const linkJson = z.object({
  agent_id: z.string(),
  mcp_server_id: z.string(),
  enabled: z.boolean(),
  sandbox_real_calls: z.boolean(),
  record_cassette: z.boolean().describe("live eval runs record this server's real responses into the set's cassette"),
  auto_approve: z.boolean().describe("this agent uses the server's quarantined tools too (no approval needed)"),
});

/** The API shape of an agent–server link. */
export function toLinkJson(row: AgentMcpServer): z.infer<typeof linkJson> {
  return {
    agent_id: row.agent_id,
    mcp_server_id: row.mcp_server_id,
    enabled: row.enabled,
    sandbox_real_calls: row.sandbox_real_calls,
    record_cassette: row.record_cassette,
    auto_approve: row.auto_approve,
  };
}
