import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { evalApi } from './eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from './gateway-rig';
import { harness } from './harness';
import { startPagedMcpServer, type PagedMcpServer } from './paged-mcp-server';
import { createTestPlatform, type TestPlatform } from './platform';
import type { ServedMcp } from './stateful-mcp-http';
import { createTenant, type Tenant } from './tenants';

/** A platform with a worker, a test MCP server `name` synced (its tools approved) and linked to the agent
 * `<name>-agent`, the gateway, and a gateway client of that agent. */
export interface PeerRig<Peer extends ServedMcp> {
  platform: TestPlatform;
  peer: Peer;
  owner: Tenant;
  serverId: string;
  gateway: ServedGateway;
  /** Never lists tools: the SDK's own client would check results with its Ajv here too. */
  client: Client;
  close(): Promise<void>;
}

export type HostilePeerRig = PeerRig<PagedMcpServer>;

/** Starts the rig around a paged test server started with `peerOptions` (its token is made here). */
export function startHostilePeerRig(
  name: string,
  peerOptions: Omit<Parameters<typeof startPagedMcpServer>[0], 'token'>,
): Promise<HostilePeerRig> {
  const token = `${name}-peer-token`;
  return startPeerRig(name, token, () => startPagedMcpServer({ token, ...peerOptions }));
}

/** Starts the rig around the server `startPeer` starts, registered with `Authorization: Bearer <token>`. */
export async function startPeerRig<Peer extends ServedMcp>(
  name: string,
  token: string,
  startPeer: () => Promise<Peer>,
): Promise<PeerRig<Peer>> {
  const platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
  await platform.startWorker();
  const peer = await startPeer();
  const owner = await createTenant(platform.runtime.db, 'owner');
  const api = evalApi(platform.app, owner);
  const server = await api.send('post', '/api/v1/mcp-servers', 201, {
    name,
    transport: 'http',
    config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
    secret_value: token,
  });
  await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
  const agent = await api.send('post', '/api/ai-agents', 201, {
    name: `${name}-agent`,
    model: 'gpt-4o',
    instructions: 'x',
  });
  await api.send('post', `/api/v1/agents/${agent.data.id}/mcp-servers`, 200, { mcp_server_id: server.id });
  const gateway = await serveGateway(platform);
  const client = await gatewayClient(gateway.url(`${name}-agent`), await serviceToken(platform, owner));
  return {
    platform,
    peer,
    owner,
    serverId: server.id,
    gateway,
    client,
    async close() {
      await client.close();
      await gateway.close();
      await peer.close();
      await platform.close();
    },
  };
}
