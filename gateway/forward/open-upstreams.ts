import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ForwardUpstream, LinkedServer } from './upstream';

/**
 * The upstream session of each of `links` (opened now where it is not open yet), in link order. A server that cannot
 * be reached now is left out of this request's resources, prompts and completions (`onFailure` is told).
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
        return {
          serverId: link.serverId,
          serverName: link.serverName,
          prefix: link.prefix,
          client,
          secretValues,
          shared,
        };
      } catch (error) {
        onFailure(link, error);
        return undefined;
      }
    }),
  );
  return opened.filter((upstream) => upstream !== undefined);
}
