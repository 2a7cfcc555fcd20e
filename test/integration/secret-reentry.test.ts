import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { publishedAgent, runAgent } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { assertLogsClean } from '../helpers/logs';
import { carries, startSecretScene, type SecretScene } from '../helpers/secret-peers';

describe('secrets stay where they were given', function () {
  this.timeout(120_000);
  const given = `given-${crypto.randomBytes(16).toString('hex')}`;
  const regiven = `regiven-${crypto.randomBytes(16).toString('hex')}`;
  const key = `sk-given-${crypto.randomBytes(16).toString('hex')}`;
  const newKey = `sk-regiven-${crypto.randomBytes(16).toString('hex')}`;
  let scene: SecretScene;

  before(async () => {
    scene = await startSecretScene();
  });
  after(async () => {
    await scene?.close();
  });

  describe('MCP servers', () => {
    let serverId: string;

    const testConnection = async (): Promise<void> => {
      const res = await scene.send('post', `/api/v1/mcp-servers/${serverId}/test`);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.status, 'connected', res.text);
    };

    before(async () => {
      const created = await scene.send('post', '/api/v1/mcp-servers', {
        name: 'guarded',
        transport: 'http',
        config: { url: scene.first.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
        secret_value: given,
      });
      assert.equal(created.status, 201, created.text);
      serverId = created.body.id;
      await testConnection();
      assert.ok(
        carries(scene.first.headers(), `Bearer ${given}`),
        'the first listener got the secret it was given for',
      );
    });

    it('refuses every change that moves the stored secret with 422 secret_required naming the field, and changes nothing', async () => {
      const firstUrl = new URL(scene.first.url);
      const variants: Array<[string, object]> = [
        ['config.url', { url: scene.second.url }],
        ['config.url', { url: scene.first.url.replace('http:', 'https:') }],
        ['config.url', { url: scene.first.url.replace('127.0.0.1', 'localhost') }],
        ['config.url', { url: `http://127.0.0.1:${Number(firstUrl.port) + 1}${firstUrl.pathname}` }],
        ['config.headers.Authorization', { headers: { 'X-Token': 'Bearer $SECRET_VALUE' } }],
        ['config.headers.Authorization', { headers: { Authorization: 'Token $SECRET_VALUE' } }],
        ['config.headers.Authorization', { headers: {} }],
        ['config.headers.X-Copy', { headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Copy': '$SECRET_VALUE' } }],
        ['config.url', { url: scene.second.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } }],
      ];
      for (const [field, config] of variants) {
        const before = (await scene.send('get', `/api/v1/mcp-servers/${serverId}`)).body;
        const res = await scene.send('patch', `/api/v1/mcp-servers/${serverId}`, { config });
        assert.equal(res.status, 422, `${JSON.stringify(config)} → ${res.text}`);
        assert.equal(res.body.error.code, 'secret_required');
        assert.equal(res.body.error.details[0].field, field, JSON.stringify(config));
        assert.equal(res.body.error.details[0].give, 'secret_value');
        assert.deepEqual(res.body.error.details[0].secrets, ['SECRET_VALUE']);
        assert.deepEqual((await scene.send('get', `/api/v1/mcp-servers/${serverId}`)).body, before);
        assert.equal(await scene.vaultValue('mcp-server:guarded'), JSON.stringify({ SECRET_VALUE: given }));
        await testConnection();
      }
      assert.equal(scene.second.requests(), 0, 'nothing was sent to the host the secret was not given for');
    });

    it('lets a change that keeps the secret where it is through without the secret', async () => {
      const samePlace = await scene.send('patch', `/api/v1/mcp-servers/${serverId}`, {
        config: { url: `${scene.first.url}?v=2`, headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Trace': 'on' } },
      });
      assert.equal(samePlace.status, 200, samePlace.text);
      assert.deepEqual(samePlace.body.config.headers, { Authorization: 'Bearer $SECRET_VALUE', 'X-Trace': 'on' });
      await testConnection();
      assert.equal(scene.second.requests(), 0);
    });

    it('moves the server when the secret is given again; the new host only ever sees the new secret', async () => {
      const moved = await scene.send('patch', `/api/v1/mcp-servers/${serverId}`, {
        config: {
          url: scene.second.url,
          headers: { Authorization: 'Bearer $SECRET_VALUE', 'X-Copy': '$SECRET_VALUE' },
        },
        secret_value: regiven,
      });
      assert.equal(moved.status, 200, moved.text);
      assert.equal(moved.body.config.url, scene.second.url);
      await testConnection();
      await testConnection();
      assert.ok(scene.second.requests() > 0);
      assert.ok(carries(scene.second.headers(), `Bearer ${regiven}`));
      assert.equal(
        carries(scene.second.headers(), given),
        false,
        'the secret given for the first host never reached the second',
      );
      assert.equal(carries(scene.first.headers(), regiven), false, 'the new secret never reached the first host');
      assertLogsClean(scene.platform.logs, [given, regiven]);
    });
  });

  describe('provider integrations', () => {
    const integration = '/api/workspaces/current/integrations/openai';

    before(async () => {
      const api = evalApi(scene.platform.app, scene.tenant);
      await api.connect('openai', key, scene.llmA.baseUrl);
      await publishedAgent(api, 'guarded-agent', 'gpt-4o');
      await runAgent(api, 'guarded-agent', 'hello');
      assert.ok(scene.llmA.requests.some((req) => req.authorization === `Bearer ${key}`));
    });

    it('refuses a new base_url without the key with 422 secret_required and changes nothing', async () => {
      const before = (await scene.send('get', integration)).body;
      for (const base_url of [scene.llmB.baseUrl, null, scene.llmA.baseUrl.replace('127.0.0.1', 'localhost')]) {
        const res = await scene.send('put', integration, { base_url });
        assert.equal(res.status, 422, `${base_url} → ${res.text}`);
        assert.equal(res.body.error.code, 'secret_required');
        assert.equal(res.body.error.details[0].field, 'base_url');
        assert.equal(res.body.error.details[0].give, 'api_key');
        assert.deepEqual((await scene.send('get', integration)).body, before);
        assert.equal(await scene.vaultValue('integration:openai'), key);
        await runAgent(evalApi(scene.platform.app, scene.tenant), 'guarded-agent', 'still there?');
      }
      const unchanged = await scene.send('put', integration, { base_url: scene.llmA.baseUrl });
      assert.equal(unchanged.status, 200, unchanged.text);
      assert.deepEqual(unchanged.body, before);
      assert.equal(scene.llmB.requests.length, 0, 'nothing was sent to the base_url the key was not given for');
    });

    it('asks for the key to connect a provider for the first time', async () => {
      const res = await scene.send('put', '/api/workspaces/current/integrations/mistral', {
        base_url: scene.llmB.baseUrl,
      });
      assert.equal(res.status, 422, res.text);
      assert.equal(res.body.error.details[0].field, 'api_key');
      assert.equal((await scene.send('get', '/api/workspaces/current/integrations/mistral')).status, 404);
    });

    it('moves to a new base_url with the key given again; the new host only ever sees the new key', async () => {
      const moved = await scene.send('put', integration, { base_url: scene.llmB.baseUrl, api_key: newKey });
      assert.equal(moved.status, 200, moved.text);
      await runAgent(evalApi(scene.platform.app, scene.tenant), 'guarded-agent', 'and now?');
      assert.ok(scene.llmB.requests.length > 0);
      assert.ok(scene.llmB.requests.every((req) => req.authorization === `Bearer ${newKey}`));
      assert.equal(JSON.stringify(scene.llmB.requests).includes(key), false);
      assert.equal(
        scene.llmA.requests.some((req) => req.authorization?.includes(newKey)),
        false,
      );
      assertLogsClean(scene.platform.logs, [key, newKey]);
    });
  });
});
