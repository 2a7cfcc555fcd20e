import assert from 'node:assert/strict';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { LIMITS } from '../../domain/limits';
import { freePort, waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { publishedAgent, runAgent, toolMessages } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { gatewayClient, serveGateway, serviceToken, type ServedGateway } from '../helpers/gateway-rig';
import { harness } from '../helpers/harness';
import { startOauthPeer, type OauthPeer } from '../helpers/oauth-peer';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post';

// After an authorization, the server asks for more scope on one method: every path that meets the 403
// `insufficient_scope` leaves the server `authorization_required` showing the scope asked for, never `error`.
describe('an MCP server asking for more scope (403 insufficient_scope) on every path that meets it', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let peer: OauthPeer;
  let llm: ScriptedLlm;
  let gateway: ServedGateway;
  let publicUrl: string;
  let stopApi: () => Promise<void>;
  let owner: Tenant;
  let serverId: string;
  let agentId: string;
  const clients: Client[] = [];

  const call = (method: Method, path: string, body?: object): Promise<request.Response> =>
    request(platform.app)[method](path).set(owner.auth).send(body);
  const server = async () => (await call('get', `/api/v1/mcp-servers/${serverId}`)).body;

  // What a person does: start an authorization, follow the authorization server's redirects, open the callback.
  const authorize = async (): Promise<void> => {
    const started = await call('post', `/api/v1/mcp-servers/${serverId}/authorize`);
    assert.equal(started.status, 200, started.text);
    let url = started.body.authorization_url as string;
    for (let hops = 0; hops < 5 && !url.startsWith(`${publicUrl}/oauth/callback`); hops++)
      url = new URL((await fetch(url, { redirect: 'manual' })).headers.get('location')!, url).toString();
    const done = await fetch(url);
    assert.equal(done.status, 200, await done.text());
  };
  // Authorized afresh (a new token with every scope asked so far), then `method` asks for `scope` beyond it.
  const stepUpOn = async (method: string, scope: string): Promise<void> => {
    peer.requireScopes({});
    if ((await server()).status === 'authorization_required') await authorize();
    peer.requireScopes({ [method]: scope });
  };
  const assertAuthorizationRequired = async (scope: string): Promise<void> => {
    const row = await server();
    assert.equal(row.status, 'authorization_required', JSON.stringify(row));
    assert.equal(row.auth.step_up_scope, scope, JSON.stringify(row));
    assert.match(row.last_error, new RegExp(`asks for scope "${scope}" \\(insufficient_scope\\)`));
  };

  before(async () => {
    peer = await startOauthPeer();
    const port = await freePort();
    publicUrl = `http://127.0.0.1:${port}`;
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', ASSAY_PUBLIC_URL: publicUrl },
    });
    await platform.startWorker();
    stopApi = (await listen(platform.app, '127.0.0.1', port)).close;
    owner = await createTenant(platform.runtime.db, 'owner');
    // The scripted model asks for the server's tool once, then answers.
    llm = await startScriptedLlm((req) =>
      toolMessages(req.messages) === 0
        ? { toolCalls: [{ name: 'tracker__whoami', arguments: {} }] }
        : { content: 'done' },
    );
    const api = evalApi(platform.app, owner);
    await api.connect('openai', 'sk-step-up-key-41d7c9', llm.baseUrl);
    agentId = (await publishedAgent(api, 'desk', 'gpt-4o')).id;
    const created = await call('post', '/api/v1/mcp-servers', {
      name: 'tracker',
      transport: 'http',
      config: { url: peer.url },
      auth: { type: 'oauth' },
    });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    await authorize();
    assert.equal((await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`)).status, 200);
    await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, { mcp_server_id: serverId, enabled: true });
    gateway = await serveGateway(platform);
  });
  after(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await gateway?.close();
    await stopApi?.();
    await platform?.close();
    await Promise.all([peer?.close(), llm?.close()]);
  });

  it('test: answers the step-up and leaves the server authorization_required with the scope', async () => {
    await stepUpOn('initialize', 'scope-test');
    const test = await call('post', `/api/v1/mcp-servers/${serverId}/test`);
    assert.equal(test.body.status, 'error', test.text);
    await assertAuthorizationRequired('scope-test');
    assert.match(test.body.message, /asks for scope "scope-test"/);
  });

  it('refresh-tools: fails on the step-up without marking the server error', async () => {
    await stepUpOn('tools/list', 'scope-sync');
    const sync = await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.notEqual(sync.status, 200, sync.text);
    await assertAuthorizationRequired('scope-sync');
    assert.match(sync.body.error.message, /asks for scope "scope-sync"/);
  });

  it('health check: records the step-up and leaves the server authorization_required', async () => {
    await stepUpOn('initialize', 'scope-health');
    const before = (await call('get', `/api/v1/mcp-servers/${serverId}/health`)).body.checks.length;
    await platform.runtime.temporal.client.schedule.getHandle(workflowIds.mcpHealth(serverId)).trigger();
    let checks: Array<{ status: string; message: string | null }> = [];
    await waitFor(
      'the triggered health check',
      async () => {
        checks = (await call('get', `/api/v1/mcp-servers/${serverId}/health`)).body.checks;
        return checks.length > before;
      },
      60_000,
    );
    await assertAuthorizationRequired('scope-health');
    assert.match(checks[0].message ?? '', /asks for scope "scope-health"/);
  });

  it('flow run: the mcp.call_tool node fails on the step-up, the server authorization_required', async () => {
    await stepUpOn('tools/call', 'scope-flow');
    const flow = await call('post', '/api/v1/flows', {
      name: 'ask',
      nodes: [{ id: 'who', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: 'whoami', parameters: {} }],
    });
    assert.equal(flow.status, 201, flow.text);
    const started = await call('post', `/api/v1/flows/${flow.body.id}/runs`, { variables: {} });
    const run = await waitForFlowRunEnd((path) => call('get', path), started.body.id);
    assert.equal(run.body.status, 'failed', run.text);
    await assertAuthorizationRequired('scope-flow');
    assert.match(run.body.nodes[0].error, /asks for scope "scope-flow"/);
  });

  it("agent run: the tool call's error is the step-up, the server authorization_required", async () => {
    await stepUpOn('tools/call', 'scope-agent');
    const conversation = await runAgent(evalApi(platform.app, owner), 'desk', 'who is there?');
    await assertAuthorizationRequired('scope-agent');
    assert.match(conversation.tool_calls[0].error, /asks for scope "scope-agent"/);
  });

  it('playground call: fails on the step-up, the server authorization_required', async () => {
    await stepUpOn('tools/call', 'scope-playground');
    const res = await call('post', `/api/v1/mcp-servers/${serverId}/tools/whoami/call`, { arguments: {} });
    assert.notEqual(res.status, 200, res.text);
    await assertAuthorizationRequired('scope-playground');
    assert.match(res.body.error.message, /asks for scope "scope-playground"/);
  });

  it('gateway tools/call: answers the step-up as an error, the server authorization_required', async () => {
    await stepUpOn('tools/call', 'scope-gateway');
    const client = await gatewayClient(gateway.url(agentId), await serviceToken(platform, owner));
    clients.push(client);
    const answer = await client.callTool({ name: 'tracker__whoami', arguments: {} }).then(
      () => assert.fail('the call was answered'),
      (error: Error) => error.message,
    );
    await assertAuthorizationRequired('scope-gateway');
    assert.match(answer, /asks for scope "scope-gateway"/);
  });

  it('authorized again with the asked scope, the server answers the call', async () => {
    await stepUpOn('tools/call', 'scope-gateway');
    const res = await call('post', `/api/v1/mcp-servers/${serverId}/tools/whoami/call`, { arguments: {} });
    assert.equal(res.status, 200, res.text);
    assert.equal((await server()).auth.step_up_scope, null);
  });

  it('keeps a scope the server asks for only up to mcpOauthScopesChars', async () => {
    await stepUpOn('tools/call', 'x'.repeat(LIMITS.mcpOauthScopesChars + 500));
    const res = await call('post', `/api/v1/mcp-servers/${serverId}/tools/whoami/call`, { arguments: {} });
    assert.notEqual(res.status, 200, res.text);
    const row = await server();
    assert.equal(row.status, 'authorization_required');
    assert.equal(row.auth.step_up_scope, 'x'.repeat(LIMITS.mcpOauthScopesChars));
    assert.ok(res.body.error.message.length < LIMITS.mcpOauthScopesChars + 200, res.body.error.message);
  });
});
