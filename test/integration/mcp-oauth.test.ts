import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import request from 'supertest';
import { postgresBinDir } from '../../lib/embedded/postgres-cluster';
import { waitFor } from '../../lib/embedded/process-utils';
import { readOauthRecord } from '../../lib/mcp/oauth-vault';
import { workflowIds } from '../../workflows/temporal-names';
import { waitForFlowRunEnd } from '../helpers/flow-runs';
import { harness, type Harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { followToCallback, publicPlatform } from '../helpers/oauth-browser';
import { startOauthPeer, type OauthPeer } from '../helpers/oauth-peer';
import type { TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post' | 'patch';

describe('MCP servers behind OAuth: a real authorization server, the callback, refresh and rotation', () => {
  const responses: string[] = [];
  let h: Harness;
  let platform: TestPlatform;
  let peer: OauthPeer;
  let publicUrl: string;
  let stopApi: () => Promise<void>;
  let owner: Tenant;
  let other: Tenant;
  let serverId: string;

  const call = async (tenant: Tenant, method: Method, path: string, body?: object): Promise<request.Response> => {
    const res = await request(platform.app)[method](path).set(tenant.auth).send(body);
    responses.push(res.text);
    return res;
  };
  const register = async (tenant: Tenant, name: string): Promise<string> => {
    const res = await call(tenant, 'post', '/api/v1/mcp-servers', {
      name,
      transport: 'http',
      config: { url: peer.url },
      auth: { type: 'oauth' },
    });
    assert.equal(res.status, 201, res.text);
    assert.equal(res.body.status, 'authorization_required');
    return res.body.id;
  };
  // What a browser does with the authorization URL: follow the redirects up to Assay's callback (not opened yet).
  const browseToCallback = async (tenant: Tenant, id: string): Promise<string> => {
    const res = await call(tenant, 'post', `/api/v1/mcp-servers/${id}/authorize`);
    assert.equal(res.status, 200, res.text);
    let url = res.body.authorization_url as string;
    const asked = new URL(url);
    assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
    assert.ok(asked.searchParams.get('resource')?.startsWith(peer.url));
    assert.ok(asked.searchParams.get('state'));
    url = await followToCallback(url, publicUrl);
    assert.ok(url.startsWith(`${publicUrl}/oauth/callback/${id}?`), url);
    return url;
  };
  const open = async (url: string): Promise<{ status: number; text: string }> => {
    const res = await fetch(url);
    const text = await res.text();
    responses.push(text);
    return { status: res.status, text };
  };
  const server = async (tenant: Tenant, id: string) => (await call(tenant, 'get', `/api/v1/mcp-servers/${id}`)).body;
  const record = (tenant: Tenant, id: string) =>
    readOauthRecord(platform.runtime.vault, { id, workspace_id: tenant.workspaceId });

  before(async () => {
    h = await harness();
    peer = await startOauthPeer();
    ({ platform, publicUrl, stop: stopApi } = await publicPlatform(h));
    owner = await createTenant(h.db, 'owner');
    other = await createTenant(h.db, 'owner');
    serverId = await register(owner, 'tracker');
  });
  after(async () => {
    await stopApi?.();
    await platform?.close();
    await peer?.close();
  });

  it('refuses use before authorization, saying so in the test and the server', async () => {
    const test = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/test`);
    assert.equal(test.status, 200, test.text);
    assert.equal(test.body.status, 'error');
    assert.match(test.body.message, /authorization required/);
    assert.equal((await server(owner, serverId)).status, 'authorization_required');
  });

  it('authorizes through the callback, then syncs and calls the tool through a flow; a replayed state is refused', async () => {
    const callback = await browseToCallback(owner, serverId);
    const done = await open(callback);
    assert.equal(done.status, 200, done.text);
    assert.match(done.text, /You can close this tab/);
    assert.equal((await server(owner, serverId)).status, 'pending');
    const sync = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.equal(sync.status, 200, sync.text);
    assert.equal(sync.body.tools_count, 1);
    const flow = await call(owner, 'post', '/api/v1/flows', {
      name: 'ask',
      nodes: [{ id: 'who', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: 'whoami', parameters: {} }],
    });
    assert.equal(flow.status, 201, flow.text);
    const started = await call(owner, 'post', `/api/v1/flows/${flow.body.id}/runs`, { variables: {} });
    const run = await waitForFlowRunEnd((path) => call(owner, 'get', path), started.body.id);
    assert.equal(run.body.status, 'completed', run.text);
    assert.equal(run.body.nodes[0].output.content[0].text, 'the oauth peer');

    const tokens = (await record(owner, serverId)).tokens;
    const replay = await open(callback);
    assert.equal(replay.status, 400, replay.text);
    assert.match(replay.text, /already completed/);
    assert.deepEqual((await record(owner, serverId)).tokens, tokens, 'the replay changed nothing');
  });

  it('refuses a callback that brings another workspace its code: nothing is stored there', async () => {
    const otherId = await register(other, 'tracker');
    const theirs = new URL(await browseToCallback(other, otherId));
    const ours = new URL(await browseToCallback(owner, serverId));
    // The owner's code on the other workspace's state: PKCE binds the code to the owner's authorization.
    theirs.searchParams.set('code', ours.searchParams.get('code')!);
    const mixed = await open(theirs.toString());
    assert.equal(mixed.status, 502, mixed.text);
    assert.match(mixed.text, /token exchange failed/);
    assert.equal((await server(other, otherId)).status, 'authorization_required');
    assert.equal((await record(other, otherId)).tokens, undefined);
    // The state is spent: the right code cannot follow on it either.
    assert.equal((await open(theirs.toString())).status, 400);
  });

  it('refreshes a token near its expiry once for concurrent callers, rotating the refresh token', async () => {
    peer.ttl.code = 5; // inside the refresh margin: due at once
    const callback = await browseToCallback(owner, serverId);
    assert.equal((await open(callback)).status, 200);
    const before = (await record(owner, serverId)).tokens!;
    const refreshes = peer.grants.filter((g) => g === 'refresh_token').length;
    const [test, sync] = await Promise.all([
      call(owner, 'post', `/api/v1/mcp-servers/${serverId}/test`),
      call(owner, 'post', `/api/v1/mcp-servers/${serverId}/refresh-tools`),
    ]);
    assert.equal(test.body.status, 'connected', test.text);
    assert.equal(sync.status, 200, sync.text);
    assert.equal(peer.grants.filter((g) => g === 'refresh_token').length, refreshes + 1, 'one refresh for both');
    const after = (await record(owner, serverId)).tokens!;
    assert.notEqual(after.access_token, before.access_token);
    assert.notEqual(after.refresh_token, before.refresh_token, 'the refresh token rotated');
    assert.deepEqual(peer.liveRefreshTokens().includes(before.refresh_token!), false);
    assert.ok(peer.liveRefreshTokens().includes(after.refresh_token!));
  });

  it('forgets the tokens when the url changes: a person authorizes the new url', async () => {
    assert.ok((await record(owner, serverId)).tokens);
    const moved = await call(owner, 'patch', `/api/v1/mcp-servers/${serverId}`, { config: { url: `${peer.url}/` } });
    assert.equal(moved.status, 200, moved.text);
    assert.equal(moved.body.status, 'authorization_required');
    assert.equal((await record(owner, serverId)).tokens, undefined);
    assert.equal((await open(await browseToCallback(owner, serverId))).status, 200);
    const test = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/test`);
    assert.equal(test.body.status, 'connected', test.text);
  });

  it('a revoked token and a failed refresh put the server in authorization_required, and its health check says so', async () => {
    peer.revokeAll();
    const schedule = platform.runtime.temporal.client.schedule.getHandle(workflowIds.mcpHealth(serverId));
    await schedule.trigger();
    let checks: Array<{ status: string; message: string | null }> = [];
    await waitFor(
      'the triggered health check',
      async () => {
        checks = (await call(owner, 'get', `/api/v1/mcp-servers/${serverId}/health`)).body.checks;
        return checks.length > 0;
      },
      60_000,
    );
    assert.equal(checks[0].status, 'error');
    assert.match(checks[0].message ?? '', /authorization required: token refresh failed/);
    const row = await server(owner, serverId);
    assert.equal(row.status, 'authorization_required');
    assert.match(row.last_error, /authorization required/);
  });

  it('a failed refresh met by refresh-tools leaves the server authorization_required, not error', async () => {
    const sync = await call(owner, 'post', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
    assert.notEqual(sync.status, 200, sync.text);
    assert.match(sync.body.error.message, /authorization required/);
    const row = await server(owner, serverId);
    assert.equal(row.status, 'authorization_required', JSON.stringify(row));
    assert.match(row.last_error, /authorization required/);
  });

  it('keeps tokens, codes and client secrets out of pg_dump, Temporal history, logs and responses', async () => {
    assert.ok(peer.issued.length >= 8);
    const { stdout } = await promisify(execFile)(
      `${postgresBinDir()}/pg_dump`,
      ['--no-owner', '--dbname', h.databaseUrl],
      {
        maxBuffer: 256 * 1024 * 1024,
      },
    );
    assert.match(stdout, /COPY public\.mcp_oauth_states /);
    const texts = [stdout, ...responses];
    for (const id of [
      workflowIds.mcpOauthAuthorize(serverId),
      workflowIds.mcpOauthExchange(serverId),
      workflowIds.mcpServerTest(serverId),
      workflowIds.mcpToolSync(serverId),
    ]) {
      const history = await platform.runtime.temporal.client.workflow.getHandle(id).fetchHistory();
      const payloads = (history.events ?? []).flatMap((e) => [
        ...(e.workflowExecutionStartedEventAttributes?.input?.payloads ?? []),
        ...(e.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
        ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
        ...(e.workflowExecutionCompletedEventAttributes?.result?.payloads ?? []),
      ]);
      const decoded = await platform.runtime.dataConverter.payloadCodecs![0].decode(payloads);
      texts.push(JSON.stringify(history), decoded.map((p) => Buffer.from(p.data ?? []).toString()).join('\n'));
      assert.match(texts.at(-1)!, new RegExp(serverId));
    }
    for (const secret of peer.issued)
      for (const text of texts) assert.equal(text.includes(secret), false, `a secret is in ${text.slice(0, 80)}`);
    assertLogsClean(platform.logs, peer.issued);
  });
});
