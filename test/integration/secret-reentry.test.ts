import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type http from 'node:http';
import request from 'supertest';
import { publishedAgent, runAgent } from '../helpers/agent-api';
import { startCountingProxy, type CountingProxy } from '../helpers/counting-proxy';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { assertLogsClean } from '../helpers/logs';
import { startEverythingHttp, type EverythingServer } from '../helpers/mcp-peers';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const carries = (seen: http.IncomingHttpHeaders[], secret: string): boolean =>
  seen.some((headers) => Object.values(headers).some((value) => String(value).includes(secret)));

describe('secrets stay where they were given', function () {
  this.timeout(120_000);
  const given = `given-${crypto.randomBytes(16).toString('hex')}`;
  const regiven = `regiven-${crypto.randomBytes(16).toString('hex')}`;
  const key = `sk-given-${crypto.randomBytes(16).toString('hex')}`;
  const newKey = `sk-regiven-${crypto.randomBytes(16).toString('hex')}`;
  let platform: TestPlatform;
  let everything: EverythingServer;
  let first: CountingProxy;
  let second: CountingProxy;
  let llmA: ScriptedLlm;
  let llmB: ScriptedLlm;
  let tenant: Tenant;

  const send = (method: 'get' | 'post' | 'patch' | 'put', path: string, body?: object): Promise<request.Response> =>
    request(platform.app)[method](path).set(tenant.auth).send(body);
  const vaultValue = (credentialId: string): Promise<string | null> =>
    platform.runtime.vault.get({ workspaceId: tenant.workspaceId, credentialId });

  before(async () => {
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    everything = await startEverythingHttp();
    [first, second, llmA, llmB] = await Promise.all([
      startCountingProxy(everything.url),
      startCountingProxy(everything.url),
      startScriptedLlm(() => ({ content: 'from A' })),
      startScriptedLlm(() => ({ content: 'from B' })),
    ]);
    tenant = await createTenant(platform.runtime.db, 'owner');
  });
  after(async () => {
    await Promise.all([first?.close(), second?.close(), llmA?.close(), llmB?.close()]);
    await everything?.stop();
    await platform?.close();
  });

  describe('MCP servers', () => {
    let serverId: string;

    const testConnection = async (): Promise<void> => {
      const res = await send('post', `/api/v1/mcp-servers/${serverId}/test`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'connected', res.text);
    };

    before(async () => {
      const created = await send('post', '/api/v1/mcp-servers', {
        name: 'guarded',
        transport: 'http',
        config: { url: first.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: given,
      });
      assert.equal(created.status, 201, created.text);
      serverId = created.body.id;
      await testConnection();
      assert.ok(carries(first.headers(), `Bearer ${given}`), 'the first listener got the secret it was given for');
    });

    it('refuses every change that moves the stored secret with 422 secret_required naming the field, and changes nothing', async () => {
      const firstUrl = new URL(first.url);
      const variants: Array<[string, object]> = [
        ['config.url', { url: second.url }],
        ['config.url', { url: first.url.replace('http:', 'https:') }],
        ['config.url', { url: first.url.replace('127.0.0.1', 'localhost') }],
        ['config.url', { url: `http://127.0.0.1:${Number(firstUrl.port) + 1}${firstUrl.pathname}` }],
        ['config.headers.Authorization', { headers: { 'X-Token': 'Bearer $SECRET_VALUE' } }],
        ['config.headers.Authorization', { headers: { Authorization: 'Token $SECRET_VALUE' } }],
        ['config.headers.Authorization', { headers: {} }],
        ['config.headers.X-Copy', { headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Copy': '$SECRET_VALUE' } }],
        ['config.url', { url: second.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } }],
      ];
      for (const [field, config] of variants) {
        const before = (await send('get', `/api/v1/mcp-servers/${serverId}`)).body;
        const res = await send('patch', `/api/v1/mcp-servers/${serverId}`, { config });
        assert.equal(res.status, 422, `${JSON.stringify(config)} → ${res.text}`);
        assert.equal(res.body.error.code, 'secret_required');
        assert.equal(res.body.error.details[0].field, field, JSON.stringify(config));
        assert.equal(res.body.error.details[0].give, 'secret_value');
        assert.deepEqual(res.body.error.details[0].secrets, ['SECRET_VALUE']);
        assert.deepEqual((await send('get', `/api/v1/mcp-servers/${serverId}`)).body, before);
        assert.equal(await vaultValue('mcp-server:guarded'), JSON.stringify({ SECRET_VALUE: given }));
        await testConnection();
      }
      assert.equal(second.requests(), 0, 'nothing was sent to the host the secret was not given for');
    });

    it('lets a change that keeps the secret where it is through without the secret', async () => {
      const samePlace = await send('patch', `/api/v1/mcp-servers/${serverId}`, {
        config: { url: `${first.url}?v=2`, headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Trace': 'on' } },
      });
      assert.equal(samePlace.status, 200, samePlace.text);
      assert.deepEqual(samePlace.body.config.headers, { Authorization: 'Bearer $SECRET_VALUE', 'X-Trace': 'on' });
      await testConnection();
      assert.equal(second.requests(), 0);
    });

    it('moves the server when the secret is given again; the new host only ever sees the new secret', async () => {
      const moved = await send('patch', `/api/v1/mcp-servers/${serverId}`, {
        config: { url: second.url, headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Copy': '$SECRET_VALUE' } },
        secret_value: regiven,
      });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.config.url, second.url);
      await testConnection();
      await testConnection();
      assert.ok(second.requests() > 0);
      assert.ok(carries(second.headers(), `Bearer ${regiven}`));
      assert.equal(
        carries(second.headers(), given),
        false,
        'the secret given for the first host never reached the second',
      );
      assert.equal(carries(first.headers(), regiven), false, 'the new secret never reached the first host');
      assertLogsClean(platform.logs, [given, regiven]);
    });

    it('stores each secret with the url of the request that gave it, however concurrent updates interleave', async () => {
      for (let round = 0; round < 12; round++) {
        const answers = await Promise.all(
          [first, second].map((listener, side) =>
            send('patch', `/api/v1/mcp-servers/${serverId}`, {
              config: { url: listener.url },
              secret_value: `side-${side}-round-${round}`,
            }),
          ),
        );
        for (const answer of answers) assert.ok([200, 409].includes(answer.status), answer.text);
        assert.ok(answers.some((answer) => answer.status === 200));
        const { url } = (await send('get', `/api/v1/mcp-servers/${serverId}`)).body.config;
        const stored = JSON.parse((await vaultValue('mcp-server:guarded')) ?? '{}').SECRET_VALUE;
        assert.equal(stored, `side-${url === first.url ? 0 : 1}-round-${round}`, `round ${round}`);
      }
    });
  });

  describe('provider integrations', () => {
    const integration = '/api/workspaces/current/integrations/openai';

    before(async () => {
      const api = evalApi(platform.app, tenant);
      await api.connect('openai', key, llmA.baseUrl);
      await publishedAgent(api, 'guarded-agent', 'gpt-4o');
      await runAgent(api, 'guarded-agent', 'hello');
      assert.ok(llmA.requests.some((req) => req.authorization === `Bearer ${key}`));
    });

    it('refuses a new base_url without the key with 422 secret_required and changes nothing', async () => {
      const before = (await send('get', integration)).body;
      for (const base_url of [llmB.baseUrl, null, llmA.baseUrl.replace('127.0.0.1', 'localhost')]) {
        const res = await send('put', integration, { base_url });
        assert.equal(res.status, 422, `${base_url} → ${res.text}`);
        assert.equal(res.body.error.code, 'secret_required');
        assert.equal(res.body.error.details[0].field, 'base_url');
        assert.equal(res.body.error.details[0].give, 'api_key');
        assert.deepEqual((await send('get', integration)).body, before);
        assert.equal(await vaultValue('integration:openai'), key);
        await runAgent(evalApi(platform.app, tenant), 'guarded-agent', 'still there?');
      }
      const unchanged = await send('put', integration, { base_url: llmA.baseUrl });
      assert.equal(unchanged.status, 200, unchanged.text);
      assert.deepEqual(unchanged.body, before);
      assert.equal(llmB.requests.length, 0, 'nothing was sent to the base_url the key was not given for');
    });

    it('asks for the key to connect a provider for the first time', async () => {
      const res = await send('put', '/api/workspaces/current/integrations/mistral', { base_url: llmB.baseUrl });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.details[0].field, 'api_key');
      assert.equal((await send('get', '/api/workspaces/current/integrations/mistral')).status, 404);
    });

    it('moves to a new base_url with the key given again; the new host only ever sees the new key', async () => {
      const moved = await send('put', integration, { base_url: llmB.baseUrl, api_key: newKey });
      assert.equal(moved.status, 200, moved.text);
      await runAgent(evalApi(platform.app, tenant), 'guarded-agent', 'and now?');
      assert.ok(llmB.requests.length > 0);
      assert.ok(llmB.requests.every((req) => req.authorization === `Bearer ${newKey}`));
      assert.equal(JSON.stringify(llmB.requests).includes(key), false);
      assert.equal(
        llmA.requests.some((req) => req.authorization?.includes(newKey)),
        false,
      );
      assertLogsClean(platform.logs, [key, newKey]);
    });

    it('stores each key with the base_url of the request that gave it, however concurrent updates interleave', async () => {
      for (let round = 0; round < 12; round++) {
        const answers = await Promise.all(
          [llmA, llmB].map((llm, side) =>
            send('put', integration, { base_url: llm.baseUrl, api_key: `side-${side}-round-${round}` }),
          ),
        );
        for (const answer of answers) assert.ok([200, 409].includes(answer.status), answer.text);
        const { base_url } = (await send('get', integration)).body.data;
        assert.equal(
          await vaultValue('integration:openai'),
          `side-${base_url === llmA.baseUrl ? 0 : 1}-round-${round}`,
          `round ${round}`,
        );
      }
    });
  });
});
