import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { Client } from 'pg';
import request from 'supertest';
import { waitFor } from '../../lib/embedded/process-utils';
import { publishedAgent, runAgent } from '../helpers/agent-api';
import { evalApi } from '../helpers/eval-api';
import { carries, startSecretScene, type SecretScene } from '../helpers/secret-peers';

describe('secrets stay where they were given, however requests interleave', function () {
  this.timeout(120_000);
  let scene: SecretScene;
  let serverId: string;
  const integration = '/api/workspaces/current/integrations/openai';

  /**
   * Plays an update stopped between its vault write and its commit: `hold` takes the update's lock in a transaction
   * of its own, the new secret goes to the vault, `read` starts, and only once a reader waits on the lock does the
   * row move to the new place and commit. A reader that did not wait would pair the new secret with the old place.
   */
  async function updateAroundRead(
    hold: string,
    holdParams: unknown[],
    writeVault: () => Promise<void>,
    read: () => Promise<unknown>,
    moveRow: [string, unknown[]],
  ): Promise<void> {
    const writer = new Client({ connectionString: scene.platform.config.DATABASE_URL });
    await writer.connect();
    try {
      await writer.query('BEGIN');
      await writer.query(hold, holdParams);
      await writeVault();
      const reading = read();
      await waitFor(
        'a reader waiting on the update',
        async () => {
          const { rows } = await writer.query(
            `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
          );
          return rows[0].waiting > 0;
        },
        10_000,
      );
      await writer.query(...moveRow);
      await writer.query('COMMIT');
      await reading;
    } finally {
      await writer.end();
    }
  }

  before(async () => {
    scene = await startSecretScene();
    const created = await scene.send('post', '/api/v1/mcp-servers', {
      name: 'raced',
      transport: 'http',
      config: { url: scene.first.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: `raced-${crypto.randomBytes(8).toString('hex')}`,
    });
    assert.equal(created.status, 201, created.text);
    serverId = created.body.id;
    const api = evalApi(scene.platform.app, scene.tenant);
    await api.connect('openai', `sk-raced-${crypto.randomBytes(8).toString('hex')}`, scene.llmA.baseUrl);
    await publishedAgent(api, 'raced-agent', 'gpt-4o');
  });
  after(async () => {
    await scene?.close();
  });

  describe('MCP servers', () => {
    it('stores each secret with the url of the request that gave it, however concurrent updates interleave', async () => {
      for (let round = 0; round < 12; round++) {
        const answers = await Promise.all(
          [scene.first, scene.second].map((listener, side) =>
            scene.send('patch', `/api/v1/mcp-servers/${serverId}`, {
              config: { url: listener.url },
              secret_value: `side-${side}-round-${round}`,
            }),
          ),
        );
        for (const answer of answers) assert.ok([200, 409].includes(answer.status), answer.text);
        assert.ok(answers.some((answer) => answer.status === 200));
        const { url } = (await scene.send('get', `/api/v1/mcp-servers/${serverId}`)).body.config;
        const stored = JSON.parse((await scene.vaultValue('mcp-server:raced')) ?? '{}').SECRET_VALUE;
        assert.equal(stored, `side-${url === scene.first.url ? 0 : 1}-round-${round}`, `round ${round}`);
      }
    });

    it('never reads a new secret with the old url while an update is between its vault write and its commit', async () => {
      const fresh = `fresh-${crypto.randomBytes(16).toString('hex')}`;
      let tested: request.Response | undefined;
      await updateAroundRead(
        'SELECT id FROM mcp_servers WHERE id = $1 FOR UPDATE',
        [serverId],
        () =>
          scene.platform.runtime.vault.put(
            { workspaceId: scene.tenant.workspaceId, credentialId: 'mcp-server:raced' },
            JSON.stringify({ SECRET_VALUE: fresh }),
          ),
        async () => (tested = await scene.send('post', `/api/v1/mcp-servers/${serverId}/test`)),
        [
          'UPDATE mcp_servers SET config = $1 WHERE id = $2',
          [JSON.stringify({ url: scene.second.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } }), serverId],
        ],
      );
      assert.equal(tested?.body.status, 'connected', tested?.text);
      assert.equal(carries(scene.first.headers(), fresh), false, 'the new secret never reached the old host');
      assert.ok(carries(scene.second.headers(), `Bearer ${fresh}`));
    });
  });

  describe('provider integrations', () => {
    it('stores each key with the base_url of the request that gave it, however concurrent updates interleave', async () => {
      for (let round = 0; round < 12; round++) {
        const answers = await Promise.all(
          [scene.llmA, scene.llmB].map((llm, side) =>
            scene.send('put', integration, { base_url: llm.baseUrl, api_key: `side-${side}-round-${round}` }),
          ),
        );
        for (const answer of answers) assert.ok([200, 409].includes(answer.status), answer.text);
        const { base_url } = (await scene.send('get', integration)).body.data;
        assert.equal(
          await scene.vaultValue('integration:openai'),
          `side-${base_url === scene.llmA.baseUrl ? 0 : 1}-round-${round}`,
          `round ${round}`,
        );
      }
    });

    it('never reads a new key with the old base_url while an update is between its vault write and its commit', async () => {
      const fresh = `sk-fresh-${crypto.randomBytes(16).toString('hex')}`;
      await updateAroundRead(
        'SELECT pg_advisory_xact_lock(hashtext($1))',
        [`${scene.tenant.workspaceId}/integration:openai`],
        () =>
          scene.platform.runtime.vault.put(
            { workspaceId: scene.tenant.workspaceId, credentialId: 'integration:openai' },
            fresh,
          ),
        () => runAgent(evalApi(scene.platform.app, scene.tenant), 'raced-agent', 'which key?'),
        [
          'UPDATE integrations SET base_url = $1 WHERE workspace_id = $2 AND provider = $3',
          [scene.llmB.baseUrl, scene.tenant.workspaceId, 'openai'],
        ],
      );
      assert.equal(
        JSON.stringify(scene.llmA.requests).includes(fresh),
        false,
        'the new key never reached the old base_url',
      );
      assert.ok(scene.llmB.requests.some((req) => req.authorization === `Bearer ${fresh}`));
    });
  });
});
