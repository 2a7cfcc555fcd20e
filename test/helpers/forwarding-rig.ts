import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { installForwarding, unionCapabilities, type ForwardUpstream } from '../../gateway/forward/install';

/** The gateway's forwarding server over real upstream servers, and a client talking to it in memory. */
export interface ForwardingRig {
  client: Client;
  close(): Promise<void>;
}

/** Connects to each upstream `[serverName, url]` (Streamable HTTP; prefix `<serverName>__`) and forwards to them. */
export async function startForwardingRig(servers: [string, string][]): Promise<ForwardingRig> {
  const upstreams: ForwardUpstream[] = [];
  for (const [serverName, url] of servers) {
    const upstreamClient = new Client({ name: 'gateway-test', version: '1.0.0' }, { capabilities: {} });
    await upstreamClient.connect(new StreamableHTTPClientTransport(new URL(url)));
    upstreams.push({
      serverId: serverName,
      serverName,
      prefix: `${serverName}__`,
      client: upstreamClient,
      secretValues: [],
    });
  }
  const capabilities = unionCapabilities(upstreams);
  const server = new Server({ name: 'gateway', version: '1' }, { capabilities });
  installForwarding(server, capabilities, async () => upstreams);
  const [downstream, side] = InMemoryTransport.createLinkedPair();
  await server.connect(side);
  const client = new Client({ name: 'client', version: '1' }, { capabilities: {} });
  await client.connect(downstream);
  return {
    client,
    async close() {
      await client.close();
      for (const upstream of upstreams) await upstream.client.close();
    },
  };
}
