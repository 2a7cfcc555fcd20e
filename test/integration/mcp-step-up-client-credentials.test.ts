import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { LIMITS } from '../../domain/limits';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness } from '../helpers/harness';
import { startOauthPeer, type OauthPeer } from '../helpers/oauth-peer';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post';

// A machine-to-machine server (client credentials, no person) that asks for more scope: Assay asks its token endpoint
// for the scope (with the scopes it has) and tries the request once more; a refused scope ends the server `error`,
// never `authorization_required` (nobody could end that state for this type).
describe('a client-credentials MCP server asking for more scope (403 insufficient_scope)', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let peer: OauthPeer;
  let owner: Tenant;
  let serverId: string;

  const call = (method: Method, path: string, body?: object): Promise<request.Response> =>
    request(platform.app)[method](path).set(owner.auth).send(body);
  const server = async () => (await call('get', `/api/v1/mcp-servers/${serverId}`)).body;
  const playground = () => call('post', `/api/v1/mcp-servers/${serverId}/tools/whoami/call`, { arguments: {} });
  const lastAsked = (): string[] => (peer.askedScopes.at(-1) ?? '').split(' ');
  const assertEndedError = async (scope: string, why: RegExp): Promise<void> => {
    const row = await server();
    assert.equal(row.status, 'error', JSON.stringify(row));
    assert.equal(row.auth.step_up_scope, scope, JSON.stringify(row));
    assert.match(row.last_error, new RegExp(`scope "${scope}"`));
    assert.match(row.last_error, why);
  };
  // Back to a connected server with no scope asked beyond the token's (a sync succeeds).
  const reset = async (): Promise<void> => {
    peer.requireScopes({});
    peer.refusedScopes = [];
    assert.equal((await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`)).status, 200);
  };

  before(async () => {
    peer = await startOauthPeer();
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    owner = await createTenant(platform.runtime.db, 'owner');
    const secret = crypto.randomBytes(24).toString('base64url');
    peer.preRegister({ client_id: 'machine', client_secret: secret, redirect_uris: [] });
    const created = await call('post', '/api/v1/mcp-servers', {
      name: 'ledger',
      transport: 'http',
      config: { url: peer.url },
      auth: { type: 'oauth_client_credentials', client_id: 'machine', client_secret: secret, scopes: 'tools' },
    });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    assert.equal((await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`)).status, 200);
  });
  after(async () => {
    await platform?.close();
    await peer?.close();
  });
  beforeEach(reset);

  it('flow run: gets a token with the asked scope and the mcp.call_tool node succeeds, the server connected', async () => {
    peer.requireScopes({ 'tools/call': 'scope-flow' });
    const flow = await call('post', '/api/v1/flows', {
      name: 'ask',
      nodes: [{ id: 'who', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: 'whoami', parameters: {} }],
    });
    assert.equal(flow.status, 201, flow.text);
    const started = await call('post', `/api/v1/flows/${flow.body.id}/runs`, { variables: {} });
    const run = await waitForFlowRunEnd((path) => call('get', path), started.body.id);
    assert.equal(run.body.status, 'completed', run.text);
    assert.deepEqual(lastAsked().sort(), ['scope-flow', 'tools']);
    const row = await server();
    assert.equal(row.status, 'connected', JSON.stringify(row));
    assert.equal(row.auth.step_up_scope, null);
  });

  it('playground call: succeeds after the step-up, and the next token asks for the scopes granted so far', async () => {
    peer.requireScopes({ 'tools/call': 'scope-playground' });
    const res = await playground();
    assert.equal(res.status, 200, res.text);
    assert.equal((await server()).status, 'connected');
    // Every token revoked: the new one (client credentials again) asks for the scopes the step-ups added.
    peer.revokeAll();
    const again = await playground();
    assert.equal(again.status, 200, again.text);
    assert.deepEqual(lastAsked().sort(), ['scope-flow', 'scope-playground', 'tools']);
  });

  it('refresh-tools: meets the step-up on tools/list, gets the scope and syncs', async () => {
    peer.requireScopes({ 'tools/list': 'scope-sync' });
    const sync = await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.equal(sync.status, 200, sync.text);
    const row = await server();
    assert.equal(row.status, 'connected', JSON.stringify(row));
    assert.ok(lastAsked().includes('scope-sync'), peer.askedScopes.join(' | '));
  });

  it('playground call: a scope the token endpoint refuses ends the server error naming it', async () => {
    peer.refusedScopes = ['scope-denied'];
    peer.requireScopes({ 'tools/call': 'scope-denied' });
    const res = await playground();
    assert.notEqual(res.status, 200, res.text);
    assert.match(res.body.error.message, /scope "scope-denied"/);
    await assertEndedError('scope-denied', /refused a token with it: scope scope-denied is not granted/);
  });

  it('refresh-tools: a scope the token endpoint refuses on tools/list ends the server error naming it', async () => {
    peer.refusedScopes = ['scope-list-denied'];
    peer.requireScopes({ 'tools/list': 'scope-list-denied' });
    const sync = await call('post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.notEqual(sync.status, 200, sync.text);
    assert.match(sync.body.error.message, /scope "scope-list-denied"/);
    await assertEndedError('scope-list-denied', /refused a token with it/);
  });

  it('a refused scope is not asked for again: the next token has the scopes granted before', async () => {
    peer.refusedScopes = ['scope-denied'];
    peer.requireScopes({ 'tools/call': 'scope-denied' });
    assert.notEqual((await playground()).status, 200);
    await reset();
    peer.revokeAll();
    assert.equal((await playground()).status, 200);
    assert.equal(lastAsked().includes('scope-denied'), false, peer.askedScopes.join(' | '));
  });

  it('does not ask the token endpoint for scopes over mcpOauthScopesChars: the server ends error', async () => {
    const huge = 'y'.repeat(LIMITS.mcpOauthScopesChars);
    peer.requireScopes({ 'tools/call': huge });
    const requests = peer.askedScopes.length;
    assert.notEqual((await playground()).status, 200);
    assert.equal(peer.askedScopes.length, requests, 'the token endpoint was asked');
    await assertEndedError(huge, new RegExp(`over ${LIMITS.mcpOauthScopesChars} characters`));
  });
});
