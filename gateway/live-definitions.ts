import { PRE_PIN_APPROVAL } from '../domain/mcp/tool-approval';
import { isLiveDefinitionApproved, type ListedToolFields } from '../lib/outbound/mcp/tool-definition';
import type { ExposedTool } from './tool-catalog';
import type { Upstream, Upstreams } from './upstreams';

type LiveTools = Map<string, ListedToolFields>;

/** Whether the live definition must be compared at all: not where the link auto-approves, nor for a tool approved
 * before definitions were hashed (its next sync pins it). */
const checked = (exposed: ExposedTool): boolean =>
  !exposed.autoApprove && exposed.tool.approved_hash !== PRE_PIN_APPROVAL;

const moved = (exposed: ExposedTool, live: LiveTools): boolean => {
  const listed = live.get(exposed.tool.name);
  return listed === undefined || !isLiveDefinitionApproved(exposed.tool.approved_hash, listed);
};

/**
 * Whether the upstream now lists `exposed` with a definition other than the approved one (a change since the last
 * sync: a rug pull the next sync will quarantine), on the upstream session the call already holds.
 */
export async function liveDefinitionMoved(exposed: ExposedTool, upstream: Upstream): Promise<boolean> {
  return checked(exposed) && moved(exposed, await upstream.liveTools());
}

/** The tools whose live definition is still the approved one; a server that cannot be reached keeps its tools listed
 * (a call to one answers that the server is unavailable). Each server's tools are listed once per call of this. */
export async function withoutMovedTools(tools: ExposedTool[], upstreams: Upstreams): Promise<ExposedTool[]> {
  const live = new Map<string, Promise<LiveTools | undefined>>();
  const liveOf = (serverId: string): Promise<LiveTools | undefined> => {
    let listed = live.get(serverId);
    if (!listed) {
      listed = upstreams
        .get(serverId)
        .then((upstream) => upstream.liveTools())
        .catch(() => undefined);
      live.set(serverId, listed);
    }
    return listed;
  };
  const kept: ExposedTool[] = [];
  for (const exposed of tools) {
    const listed = checked(exposed) ? await liveOf(exposed.serverId) : undefined;
    if (!listed || !moved(exposed, listed)) kept.push(exposed);
  }
  return kept;
}
