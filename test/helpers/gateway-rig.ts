import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { createGateway } from '../../gateway/gateway-app';
import type { Config } from '../../lib/config';
import type { TestPlatform } from './platform';
import type { Tenant } from './tenants';

/** The gateway on a platform's services, served on 127.0.0.1 and a free port, as `assay gateway` serves it. */
export interface ServedGateway {
  baseUrl: string;
  /** The endpoint of an agent (id or name). */
  url(agent: string): string;
  close(): Promise<void>;
}

/** Serves the gateway with the platform's configuration (and `config` changed). */
export async function serveGateway(platform: TestPlatform, config: Partial<Config> = {}): Promise<ServedGateway> {
  const gateway = createGateway({
    config: { ...platform.config, ...config },
    db: platform.runtime.db,
    vault: platform.runtime.vault,
    logger: platform.logger,
    tracing: platform.runtime.tracing,
  });
  const served = await listen(gateway.app, '127.0.0.1', 0);
  const baseUrl = `http://127.0.0.1:${(served.server.address() as AddressInfo).port}`;
  return {
    baseUrl,
    url: (agent) => `${baseUrl}/mcp/agents/${encodeURIComponent(agent)}`,
    async close() {
      await gateway.close();
      await served.close();
    },
  };
}

/** An MCP SDK client connected to `url` with a bearer token, declaring `capabilities` (none by default). */
export async function gatewayClient(
  url: string,
  token: string,
  capabilities: ClientCapabilities = {},
): Promise<Client> {
  const client = new Client({ name: 'gateway-test', version: '1.0.0' }, { capabilities });
  const headers = { Authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A service token of the tenant's workspace with `role` (builder by default). */
export async function serviceToken(platform: TestPlatform, tenant: Tenant, role = 'builder'): Promise<string> {
  const res = await request(platform.app)
    .post('/api/workspaces/current/service-tokens')
    .set(tenant.auth)
    .send({ name: `gateway-${role}`, role });
  if (res.status !== 201) throw new Error(`service token: ${res.status} ${res.text}`);
  return res.body.data.token as string;
}
