import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import request from 'supertest';
import { readOauthRecord } from '../../lib/mcp/oauth-vault';
import { harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { followToCallback, publicPlatform } from '../helpers/oauth-browser';
import { startOauthPeer, type OauthPeer } from '../helpers/oauth-peer';
import type { TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

type Method = 'get' | 'post' | 'patch';

describe('OAuth client secrets and codes go only to the authorization server they were asked of', () => {
  let platform: TestPlatform;
  let first: OauthPeer;
  let second: OauthPeer;
  let publicUrl: string;
  let stopApi: () => Promise<void>;
  let owner: Tenant;

  const call = (method: Method, path: string, body?: object) =>
    request(platform.app)[method](path).set(owner.auth).send(body);
  const register = async (url: string, auth: object): Promise<string> => {
    const res = await call('post', '/api/v1/mcp-servers', {
      name: `s-${crypto.randomBytes(4).toString('hex')}`,
      transport: 'http',
      config: { url },
      auth,
    });
    assert.equal(res.status, 201, res.text);
    return res.body.id;
  };
  const test = async (id: string) => (await call('post', `/api/v1/mcp-servers/${id}/test`)).body;
  const callbackOf = async (id: string): Promise<string> => {
    const res = await call('post', `/api/v1/mcp-servers/${id}/authorize`);
    assert.equal(res.status, 200, res.text);
    return followToCallback(res.body.authorization_url, publicUrl);
  };
  const open = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, text: await res.text() };
  };
  const tokensOf = async (id: string) =>
    (await readOauthRecord(platform.runtime.vault, { id, workspace_id: owner.workspaceId })).tokens;
  // Without the client secret the move is refused and nothing changes; with it, it is accepted.
  const moveToSecond = async (id: string, fresh: string): Promise<request.Response> => {
    const refused = await call('patch', `/api/v1/mcp-servers/${id}`, { config: { url: second.url } });
    assert.equal(refused.status, 422, refused.text);
    assert.equal(refused.body.error.code, 'secret_required');
    assert.deepEqual(
      [refused.body.error.details[0].field, refused.body.error.details[0].give],
      ['config.url', 'auth.client_secret'],
    );
    assert.equal((await call('get', `/api/v1/mcp-servers/${id}`)).body.config.url, first.url, 'nothing changed');
    const moved = await call('patch', `/api/v1/mcp-servers/${id}`, {
      config: { url: second.url },
      auth: { client_secret: fresh },
    });
    assert.equal(moved.status, 200, moved.text);
    return moved;
  };
  const given: string[] = [];
  const secret = (): string => {
    const value = `cs-${crypto.randomBytes(16).toString('base64url')}`;
    given.push(value);
    return value;
  };

  before(async () => {
    const h = await harness();
    [first, second] = await Promise.all([startOauthPeer(), startOauthPeer()]);
    ({ platform, publicUrl, stop: stopApi } = await publicPlatform(h));
    owner = await createTenant(h.db, 'owner');
  });
  after(async () => {
    await stopApi?.();
    await platform?.close();
    await first?.close();
    await second?.close();
  });

  it('moves a client-credentials server to another origin only with its client secret given again', async () => {
    const [old, fresh] = [secret(), secret()];
    first.preRegister({ client_id: 'machine', client_secret: old, redirect_uris: [] });
    second.preRegister({ client_id: 'machine', client_secret: fresh, redirect_uris: [] });
    const id = await register(first.url, {
      type: 'oauth_client_credentials',
      client_id: 'machine',
      client_secret: old,
    });
    assert.equal((await test(id)).status, 'connected');
    assert.ok(first.presentedSecrets.includes(old));

    await moveToSecond(id, fresh);
    assert.equal((await test(id)).status, 'connected');
    assert.ok(second.presentedSecrets.includes(fresh));
    assert.equal(second.presentedSecrets.includes(old), false, "the new host's token endpoint saw the old secret");
  });

  it('moves an authorization-code server with a pre-registered secret to another origin only with it given again', async () => {
    const [old, fresh] = [secret(), secret()];
    const id = await register(first.url, { type: 'oauth', client_id: 'person', client_secret: old });
    const moved = await moveToSecond(id, fresh);
    assert.equal(moved.body.status, 'authorization_required');
    second.preRegister({
      client_id: 'person',
      client_secret: fresh,
      redirect_uris: [`${publicUrl}/oauth/callback/${id}`],
    });
    assert.equal((await open(await callbackOf(id))).status, 200);
    assert.equal((await test(id)).status, 'connected');
    assert.ok(second.presentedSecrets.includes(fresh));
    assert.equal(second.presentedSecrets.includes(old), false, "the new host's token endpoint saw the old secret");
  });

  it('keeps a pre-registered client bound to the authorization server it was first presented to', async () => {
    const bound = secret();
    first.preRegister({ client_id: 'bound', client_secret: bound, redirect_uris: [] });
    const id = await register(first.url, {
      type: 'oauth_client_credentials',
      client_id: 'bound',
      client_secret: bound,
    });
    assert.equal((await test(id)).status, 'connected');
    // The same origin (no secret asked again), whose resource metadata now names another authorization server.
    first.authorizationServer = second.issuer;
    try {
      const moved = await call('patch', `/api/v1/mcp-servers/${id}`, { config: { url: `${first.url}/` } });
      assert.equal(moved.status, 200, moved.text);
      const result = await test(id);
      assert.equal(second.presentedSecrets.includes(bound), false, 'another authorization server saw the secret');
      assert.equal(result.status, 'error');
      assert.match(result.message, /bound to the authorization server/);
    } finally {
      first.authorizationServer = undefined;
    }
  });

  it("sends each server's own redirect URI, and refuses a code at another server's callback or the shared one", async () => {
    const [x, y] = [await register(first.url, { type: 'oauth' }), await register(first.url, { type: 'oauth' })];
    const asked = await call('post', `/api/v1/mcp-servers/${x}/authorize`);
    const redirect = new URL(asked.body.authorization_url).searchParams.get('redirect_uri');
    assert.equal(redirect, `${publicUrl}/oauth/callback/${x}`);

    const onY = new URL(await callbackOf(x));
    onY.pathname = `/oauth/callback/${y}`;
    const crossed = await open(onY.toString());
    assert.equal(crossed.status, 400, crossed.text);
    assert.match(crossed.text, /another server&#39;s callback/);

    const shared = new URL(await callbackOf(x));
    shared.pathname = '/oauth/callback';
    const onShared = await open(shared.toString());
    assert.equal(onShared.status, 502, onShared.text);
    assert.match(onShared.text, /another redirect URI/);
    for (const id of [x, y]) assert.equal(await tokensOf(id), undefined, 'nothing stored');

    assert.equal((await open(await callbackOf(x))).status, 200, 'its own callback works');
  });

  it('refuses a callback whose iss is not the issuer asked, or lacks it when the server advertises it', async () => {
    const id = await register(first.url, { type: 'oauth' });
    try {
      for (const sent of [second.issuer, undefined]) {
        first.iss = { advertised: true, sent };
        const page = await open(await callbackOf(id));
        assert.equal(page.status, 502, page.text);
        assert.match(page.text, /RFC 9207/);
        assert.equal(await tokensOf(id), undefined, 'nothing stored');
        assert.equal((await call('get', `/api/v1/mcp-servers/${id}`)).body.status, 'authorization_required');
      }
      first.iss = { advertised: true, sent: first.issuer };
      assert.equal((await open(await callbackOf(id))).status, 200);
      assert.ok(await tokensOf(id));
    } finally {
      first.iss = { advertised: false };
    }
  });

  it('refuses a callback whose iss is repeated or over its bound, even where the server does not advertise it', async () => {
    const id = await register(first.url, { type: 'oauth' });
    const unreadable = [
      `&iss=${encodeURIComponent(first.issuer)}&iss=${encodeURIComponent(second.issuer)}`,
      `&iss=${'x'.repeat(5000)}`,
    ];
    for (const extra of unreadable) {
      const page = await open((await callbackOf(id)) + extra);
      assert.equal(page.status, 400, page.text);
      assert.match(page.text, /unreadable iss/);
      assert.equal(await tokensOf(id), undefined, 'nothing stored');
    }
  });

  it('keeps the client secrets, codes and tokens out of the logs', () => {
    assertLogsClean(platform.logs, [...given, ...first.issued, ...second.issued]);
  });
});
