import assert from 'node:assert/strict';
import type net from 'node:net';
import request from 'supertest';
import { listen } from '../../cli/http-server';
import { ensureUser } from '../../db/account.repository';
import { upsertMembership } from '../../db/member.repository';
import { LIMITS } from '../../domain/limits';
import { ResponseOracle, type OpenApiDocument } from '../helpers/fuzz-oracle';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

// The answers a schema-driven fuzzer found the document silent on (issue 20, item 14), each checked by the fuzz
// suite's own oracle against a real listening api.
describe('the OpenAPI document names every status the server answers', () => {
  let platform: TestPlatform;
  let owner: Tenant;
  let oracle: ResponseOracle;
  let baseUrl: string;
  let closeHttp: () => Promise<void>;

  before(async () => {
    // No METRICS_TOKEN, on the default loopback ASSAY_HOST: /metrics is served without a token.
    platform = await createTestPlatform(await harness());
    const served = await listen(platform.app, '127.0.0.1', 0);
    closeHttp = served.close;
    baseUrl = `http://127.0.0.1:${(served.server.address() as net.AddressInfo).port}`;
    owner = await createTenant(platform.runtime.db, 'owner');
    oracle = new ResponseOracle((await request(baseUrl).get('/openapi.json').expect(200)).body as OpenApiDocument);
  });
  after(async () => {
    await closeHttp?.();
    await platform?.close();
  });

  const created = async (path: string, body: object): Promise<string> =>
    (await request(baseUrl).post(path).set(owner.auth).send(body).expect(201)).body.data.id as string;

  it('documents the 204 of revoking a token or a service token, removing a member and a model price', async () => {
    const member = await ensureUser(platform.runtime.db, `removed-${owner.userId}@example.test`, 'Removed');
    await upsertMembership(platform.runtime.db, owner.workspaceId, member.id, 'viewer');
    await request(baseUrl)
      .put('/api/workspaces/current/model-prices/gpt-documented')
      .set(owner.auth)
      .send({ input_per_mtok: 1, output_per_mtok: 2 })
      .expect(200);
    const deletes: Array<[string, string]> = [
      ['/api/tokens/{id}', `/api/tokens/${await created('/api/tokens', { name: 'laptop' })}`],
      [
        '/api/workspaces/current/service-tokens/{id}',
        `/api/workspaces/current/service-tokens/${await created('/api/workspaces/current/service-tokens', { name: 'ci' })}`,
      ],
      ['/api/workspaces/current/members/{user}', `/api/workspaces/current/members/${member.id}`],
      ['/api/workspaces/current/model-prices/{model}', '/api/workspaces/current/model-prices/gpt-documented'],
    ];
    for (const [template, url] of deletes) {
      const res = await request(baseUrl).delete(url).set(owner.auth);
      assert.equal(res.status, 204, `${url}: ${res.text}`);
      assert.equal(oracle.problem(template, 'delete', res), undefined);
    }
  });

  it("answers a request line over Node's header limit 414 in the usual error body, as documented", async () => {
    for (const query of [`cursor=${'c'.repeat(17_000)}`, Array.from({ length: 2_000 }, () => 'limit=10').join('&')]) {
      const res = await request(baseUrl).get(`/api/ai-agents?${query}`).set(owner.auth);
      assert.equal(res.status, 414);
      assert.equal(res.body.error?.code, 'uri_too_long', res.text);
      assert.equal(oracle.problem('/api/ai-agents', 'get', res), undefined);
    }
    const health = await request(baseUrl).get(`/healthz?pad=${'p'.repeat(17_000)}`);
    assert.equal(oracle.problem('/healthz', 'get', health), undefined);
    await request(baseUrl).get('/healthz').expect(200);
  });

  it('answers a URL over requestUrlBytes 414 `uri_too_long` and long headers 431, both as documented', async () => {
    const url = `/api/ai-agents?cursor=${'c'.repeat(LIMITS.requestUrlBytes)}`;
    for (const res of [
      await request(baseUrl).get(url).set(owner.auth),
      await request(baseUrl).get(url),
      await request(baseUrl).get(`/openapi.json?pad=${'p'.repeat(LIMITS.requestUrlBytes)}`),
    ]) {
      assert.equal(res.status, 414, res.text);
      assert.deepEqual(res.body.error?.details, { field: '(request URL)', max: LIMITS.requestUrlBytes });
    }
    assert.equal(oracle.problem('/api/ai-agents', 'get', await request(baseUrl).get(url).set(owner.auth)), undefined);
    const fits = `/api/ai-agents?cursor=${'c'.repeat(LIMITS.pageCursorChars + 1)}`;
    assert.equal(
      (await request(baseUrl).get(fits).set(owner.auth)).status,
      422,
      'a URL within the bound reaches the route',
    );
    const longHeaders = await request(baseUrl).get('/api/ai-agents').set(owner.auth).set('x-pad', 'h'.repeat(17_000));
    assert.equal(longHeaders.status, 431);
    assert.equal(longHeaders.body.error?.code, 'headers_too_large', longHeaders.text);
    assert.equal(oracle.problem('/api/ai-agents', 'get', longHeaders), undefined);
  });

  it('documents that /metrics needs no token on an api only loopback reaches', async () => {
    const res = await request(baseUrl).get('/metrics');
    assert.equal(res.status, 200);
    assert.equal(oracle.problem('/metrics', 'get', res, { authorization: false }), undefined);
    const tokenless = await request(baseUrl).get('/api/ai-agents');
    assert.equal(tokenless.status, 401, 'an /api operation still needs one');
    assert.match(
      oracle.problem('/api/ai-agents', 'get', { ...tokenless, status: 200 }, { authorization: false }) ?? '',
      /documents it needs them/,
      'the oracle refuses a success without the credentials an operation requires',
    );
  });
});
