import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ForwardUpstream } from './upstream';

/** A linked server of the agent: its id, name and exposed prefix. */
export interface LinkedServer {
  serverId: string;
  serverName: string;
  prefix: string;
}

/**
 * Opens the upstream session of every linked server when the downstream session starts (its capabilities make the
 * gateway's), in link order. A server that cannot be reached now is left out of resources, prompts and completions
 * for this session (`onFailure` is told); its tools still answer each call as they can.
 */
export async function openForwardUpstreams(
  links: LinkedServer[],
  get: (serverId: string) => Promise<{ client: Client; secretValues: readonly string[]; shared?: boolean }>,
  onFailure: (link: LinkedServer, error: unknown) => void,
): Promise<ForwardUpstream[]> {
  const opened = await Promise.all(
    links.map(async (link) => {
      try {
        const { client, secretValues, shared } = await get(link.serverId);
        return { ...link, client, secretValues, shared };
      } catch (error) {
        onFailure(link, error);
        return undefined;
      }
    }),
  );
  return opened.filter((upstream) => upstream !== undefined);
}
