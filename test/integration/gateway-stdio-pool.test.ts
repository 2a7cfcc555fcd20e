import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { waitFor } from '../../lib/embedded/process-utils';
import { evalApi } from '../helpers/eval-api';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { everythingStdioEntry } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

const text = (result: Record<string, unknown>): string =>
  ((result.content as Array<{ type: string; text?: string }>) ?? []).map((c) => c.text ?? '').join('');

/**
 * The gateway's pool of stdio children: a session starts a linked stdio server on its first use (never at
 * `initialize`), and one workspace holds at most `GATEWAY_STDIO_CHILDREN_PER_WORKSPACE` children (1 here) while
 * another workspace still gets its own. The servers are server-everything over stdio, from an operator catalog file.
 */
describe('MCP gateway: stdio children leased on first use, at most a fair share per workspace', () => {
  const marker = `assay-pool-${crypto.randomBytes(6).toString('hex')}`;
  let platform: TestPlatform;
  let gateway: ServedGateway;
  const agents: Record<'a' | 'b', { id: string; token: string }> = {} as never;
  const clients: Client[] = [];

  /** The stdio children of this test running now (found by the marker in their argv). */
  const children = async (): Promise<number> =>
    (await promisify(execFile)('ps', ['-eo', 'args'])).stdout.split('\n').filter((line) => line.includes(marker))
      .length;
  const connect = async (tenant: 'a' | 'b'): Promise<Client> => {
    const client = await gatewayClient(gateway.url(agents[tenant].id), agents[tenant].token);
    clients.push(client);
    return client;
  };
  const sum = (client: Client, server: string) =>
    client.callTool({ name: `${server}__get-sum`, arguments: { a: 1, b: 2 } });

  before(async () => {
    const h = await harness();
    const catalogFile = path.join(h.tmpDir, `catalog-${marker}.json`);
    fs.writeFileSync(
      catalogFile,
      JSON.stringify({
        entries: [everythingStdioEntry(marker)],
      }),
    );
    platform = await createTestPlatform(h, { env: { MCP_CATALOG_FILE: catalogFile } });
    await platform.startWorker();
    for (const [key, names] of [
      ['a', ['s1', 's2']],
      ['b', ['s3']],
    ] as const) {
      const tenant = await createTenant(h.db, 'owner');
      const api = evalApi(platform.app, tenant);
      const entry = (await api.send('get', '/api/v1/mcp-catalog', 200)).find(
        (e: { name: string }) => e.name === 'everything-stdio',
      );
      const agent = (
        await api.send('post', '/api/ai-agents', 201, { name: `pool-${key}`, model: 'gpt-4o', instructions: 'x' })
      ).data;
      for (const name of names) {
        const server = await api.send('post', '/api/v1/mcp-servers', 201, {
          catalog_id: entry.id,
          name,
          transport: 'stdio_curated',
          secret_value: `key-${name}`,
        });
        await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
        await api.send('post', `/api/v1/agents/${agent.id}/mcp-servers`, 200, { mcp_server_id: server.id });
      }
      agents[key] = { id: agent.id, token: await serviceToken(platform, tenant) };
    }
    // The worker's own children of the syncs are stopped after each.
    await waitFor('the syncs’ stdio children to stop', async () => (await children()) === 0, 10_000);
    gateway = await serveGateway(platform, { GATEWAY_STDIO_CHILDREN_PER_WORKSPACE: 1 });
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gateway?.close();
    await platform?.close();
  });

  it('starts no stdio child at initialize, only on the first call of a server’s tool', async () => {
    const client = await connect('a');
    assert.equal(await children(), 0, 'initialize started stdio children');
    assert.match(text(await sum(client, 's1')), /\b3\b/);
    assert.equal(await children(), 1);
  });

  it('refuses a workspace a child past its share while another workspace still gets one', async () => {
    const a = await connect('a');
    assert.match(text(await sum(a, 's1')), /\b3\b/, 'the running child is shared');
    await assert.rejects(sum(a, 's2'), /GATEWAY_STDIO_CHILDREN_PER_WORKSPACE/);
    assert.equal(await children(), 1);
    const b = await connect('b');
    assert.match(text(await sum(b, 's3')), /\b3\b/);
    assert.equal(await children(), 2);
  });
});
