import { PRE_PIN_APPROVAL } from '../domain/mcp/tool-approval';
import { isLiveDefinitionApproved } from '../lib/outbound/mcp/tool-definition';
import type { ExposedTool } from './tool-catalog';
import type { Upstreams } from './upstreams';

/**
 * Whether the upstream now lists `exposed` with a definition other than the approved one (a change since the last
 * sync: a rug pull the next sync will quarantine). Not checked where the link auto-approves, nor for a tool approved
 * before definitions were hashed (its next sync pins it).
 */
export async function liveDefinitionMoved(exposed: ExposedTool, upstreams: Upstreams): Promise<boolean> {
  const { tool } = exposed;
  if (exposed.autoApprove || tool.approved_hash === PRE_PIN_APPROVAL) return false;
  const live = (await (await upstreams.get(exposed.serverId)).liveTools()).get(tool.name);
  return live === undefined || !isLiveDefinitionApproved(tool.approved_hash, live);
}

/** The tools whose live definition is still the approved one; a server that cannot be reached keeps its tools listed
 * (a call to one answers that the server is unavailable). */
export async function withoutMovedTools(tools: ExposedTool[], upstreams: Upstreams): Promise<ExposedTool[]> {
  const kept: ExposedTool[] = [];
  for (const exposed of tools)
    if (!(await liveDefinitionMoved(exposed, upstreams).catch(() => false))) kept.push(exposed);
  return kept;
}
