import { evalApi } from '../test/helpers/eval-api';
import { serviceToken } from '../test/helpers/gateway-rig';
import { harness } from '../test/helpers/harness';
import { startEverythingHttp } from '../test/helpers/mcp-peers';
import { createTestPlatform } from '../test/helpers/platform';
import { createTenant } from '../test/helpers/tenants';
import { spawnGateway } from './gateway-process';
import type { McpPath } from './mcp-load';

/** server-everything reached directly and through the gateway, and what to stop afterwards. */
export interface GatewayPeers {
  direct: McpPath;
  gateway: McpPath;
  /** `ping` through the gateway: its own cost per request (authentication, agent, session) without the upstream. */
  gatewayPing: McpPath;
  close(): Promise<void>;
}

// The gateway's quotas raised out of the way: the bench measures forwarding, not the rate limiter's refusals.
const UNLIMITED = {
  GATEWAY_RATE_LIMIT_TOKEN_PER_MINUTE: '10000000',
  GATEWAY_RATE_LIMIT_WORKSPACE_PER_MINUTE: '10000000',
};

/**
 * server-everything over Streamable HTTP on a free port, registered (tools refreshed by the worker) and linked to an
 * agent, a service token (builder: `gateway:use`), and `assay gateway` on a free port, as the gateway's integration
 * test sets it up but in its own process (as server-everything is).
 */
export async function gatewayPeers(): Promise<GatewayPeers> {
  const everything = await startEverythingHttp();
  const h = await harness();
  const platform = await createTestPlatform(h, {
    env: { EGRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  const close = async () => {
    await platform.close();
    await everything.stop();
  };
  try {
    await platform.startWorker();
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = await api.send('post', '/api/ai-agents', 201, { name: 'bench', model: 'gpt-4o', instructions: 'x' });
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'everything',
      transport: 'http',
      config: { url: everything.url },
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    await api.send('post', `/api/v1/agents/${agent.data.id}/mcp-servers`, 200, { mcp_server_id: server.id });
    const token = await serviceToken(platform, tenant);
    // BENCH_GATEWAY_NODE_OPTIONS: node options of the gateway process alone, e.g. `--cpu-prof --cpu-prof-dir=/tmp/gw`.
    const nodeOptions = process.env.BENCH_GATEWAY_NODE_OPTIONS;
    const env = { ...UNLIMITED, ...(nodeOptions ? { NODE_OPTIONS: nodeOptions } : {}) };
    const gateway = await spawnGateway(h, platform.config.TEMPORAL_TASK_QUEUE, env);
    const gatewayUrl = gateway.url(agent.data.id);
    const auth = { Authorization: `Bearer ${token}` };
    return {
      direct: { label: 'direct', url: everything.url, headers: {}, tool: 'get-sum' },
      gateway: { label: 'gateway', url: gatewayUrl, headers: auth, tool: 'everything__get-sum' },
      gatewayPing: { label: 'gateway ping', url: gatewayUrl, headers: auth, tool: null },
      close: async () => {
        await gateway.close();
        await close();
      },
    };
  } catch (error) {
    await close();
    throw error;
  }
}
