import assert from 'node:assert/strict';
import { linkMcpServer, publishedAgent } from '../helpers/agent-api';
import { runServerConformance, startReferenceServer, type ReferenceServer } from '../helpers/conformance';
import { evalApi } from '../helpers/eval-api';
import { forwardingProxy } from '../helpers/forwarding-proxy';
import { serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant } from '../helpers/tenants';

/**
 * The Must-show of issue 24 §1: the official MCP conformance suite (pinned `@modelcontextprotocol/conformance`), its
 * server scenarios of the 2025-11-25 requirement set, against the gateway fronting the suite's own reference server.
 * The suite sends no credentials: a loopback proxy adds the service token's `Authorization` header in front of the
 * gateway (the gateway itself has no way around authentication).
 */
describe('the gateway under the MCP conformance suite (server scenarios, 2025-11-25)', () => {
  let platform: TestPlatform;
  let reference: ReferenceServer;
  let gateway: ServedGateway;
  let proxy: Awaited<ReturnType<typeof forwardingProxy>>;
  let endpoint: string;

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    reference = await startReferenceServer();
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const agent = await publishedAgent(api, 'conformance', 'gpt-4o');
    // An empty prefix: the suite calls the reference server's tools and prompts by their own names.
    await linkMcpServer(api, agent.id, 'everything', reference.url, { tool_prefix: '' });
    const token = await serviceToken(platform, tenant);
    gateway = await serveGateway(platform);
    proxy = await forwardingProxy(gateway.baseUrl, { headers: { authorization: `Bearer ${token}` } });
    endpoint = `${proxy.url}/mcp/agents/${agent.id}`;
  });
  after(async () => {
    await proxy?.close();
    await gateway?.close();
    await reference?.stop();
    await platform?.close();
  });

  it('passes every check of every scenario, the DNS-rebinding one included', async () => {
    const checks = await runServerConformance(endpoint);
    const scenarios = new Set(checks.map((check) => check.scenario));
    // The 0.1.16 suite's active server scenarios for 2025-11-25 (all pass against the reference server alone).
    assert.equal(scenarios.size, 30, [...scenarios].join(', '));
    for (const needed of [
      'tools-call-sampling',
      'tools-call-elicitation',
      'resources-subscribe',
      'dns-rebinding-protection',
    ])
      assert.ok(scenarios.has(needed), `${needed} ran`);
    const failed = checks.filter((check) => check.status !== 'SUCCESS');
    assert.deepEqual(
      failed.map((check) => ({ scenario: check.scenario, id: check.id, error: check.errorMessage })),
      [],
    );
  });
});
