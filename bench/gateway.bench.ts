import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { evalApi } from '../test/helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken } from '../test/helpers/gateway-rig';
import { harness } from '../test/helpers/harness';
import { listToolsWithSdk, startEverythingHttp } from '../test/helpers/mcp-peers';
import { createTestPlatform } from '../test/helpers/platform';
import { createTenant } from '../test/helpers/tenants';
import { connectSdkClient } from './gateway-bench-client';

const CONCURRENCY = [1, 64];

interface Measured {
  latencies: number[];
  wallMs: number;
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/** `calls` calls of `get-sum` spread over the clients, each client one after another; every latency and the wall. */
async function drive(clients: Client[], tool: string, calls: number): Promise<Measured> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < calls) {
        next++;
        const t = performance.now();
        const result = await client.callTool({ name: tool, arguments: { a: 1, b: 2 } });
        latencies.push(performance.now() - t);
        if (result.isError) throw new Error(`${tool} failed: ${JSON.stringify(result)}`);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), wallMs: performance.now() - started };
}

/**
 * `npm run bench -- gateway`: the same MCP SDK client calling server-everything's `get-sum` directly and through the
 * gateway (a service token, the agent's link to the server), `BENCH_GATEWAY_CALLS` (10,000) calls at 1 and at 64
 * concurrent sessions: p50 and p99 of each, the added latency, and throughput through the gateway / direct.
 */
export async function gatewayBench(): Promise<void> {
  const calls = Number(process.env.BENCH_GATEWAY_CALLS ?? 10_000);
  const h = await harness();
  const everything = await startEverythingHttp();
  const platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'warn' } });
  await platform.startWorker();
  const tenant = await createTenant(h.db, 'owner');
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
  const unlimited = {
    GATEWAY_RATE_LIMIT_TOKEN_PER_MINUTE: 10_000_000,
    GATEWAY_RATE_LIMIT_WORKSPACE_PER_MINUTE: 10_000_000,
  };
  const gateway = await serveGateway(platform, unlimited);
  await listToolsWithSdk(everything.url);
  try {
    for (const concurrency of CONCURRENCY) {
      const direct = await Promise.all(Array.from({ length: concurrency }, () => connectSdkClient(everything.url)));
      const through = await Promise.all(
        Array.from({ length: concurrency }, () => gatewayClient(gateway.url(agent.data.id), token)),
      );
      await drive(direct, 'get-sum', Math.min(calls, 500));
      await drive(through, 'everything__get-sum', Math.min(calls, 500));
      const d = await drive(direct, 'get-sum', calls);
      const g = await drive(through, 'everything__get-sum', calls);
      const p = (m: Measured, q: number): string => percentile(m.latencies, q).toFixed(2);
      console.log(
        `gateway at ${concurrency} session(s), ${calls} calls: direct p50 ${p(d, 50)} ms p99 ${p(d, 99)} ms ` +
          `(${((calls / d.wallMs) * 1000).toFixed(0)} calls/s); through the gateway p50 ${p(g, 50)} ms p99 ${p(g, 99)} ms ` +
          `(${((calls / g.wallMs) * 1000).toFixed(0)} calls/s)`,
      );
      const added = (q: number): string => (percentile(g.latencies, q) - percentile(d.latencies, q)).toFixed(2);
      console.log(
        `  added p50 ${added(50)} ms, p99 ${added(99)} ms; throughput gateway/direct = ${(d.wallMs / g.wallMs).toFixed(2)}`,
      );
      await Promise.all([...direct, ...through].map((c) => c.close()));
    }
  } finally {
    await gateway.close();
    await platform.close();
    await everything.stop();
  }
}
