import assert from 'node:assert/strict';
import request from 'supertest';
import { createActivityDeps } from '../../activities/platform/activity-deps';
import { createJudgeConnections } from '../../activities/judge/judge-connections.service';
import type { RunJudge } from '../../db/tables/eval-run.table';
import { markWorkspaceDeleted } from '../../db/workspace.repository';
import { waitFor } from '../../lib/embedded/process-utils';
import { EvalRunStatusKey, workflowIds } from '../../workflows/temporal-names';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { seedCases } from '../helpers/eval-seed';
import { publishedAgent, userMessage } from '../helpers/agent-api';
import { harness } from '../helpers/harness';
import { startPagedMcpServer, type PagedMcpServer } from '../helpers/paged-mcp-server';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant } from '../helpers/tenants';

const CASES = 400;
const JUDGE_MS = 300;
// From this long after the 202 on, the deleted workspace's key is never sent to the provider again.
const QUIET_AFTER_MS = 8_000;

describe('deleting a workspace stops its work first', function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let peer: PagedMcpServer;
  let waiting = 0;
  const releases: Array<() => void> = [];

  before(async () => {
    // A tool that answers only when the test lets it: a flow node that is still running.
    peer = await startPagedMcpServer({
      token: 'deletion-flow-token-0001',
      pageSize: 10,
      tools: [{ name: 'wait', description: 'Answers when released', inputSchema: { type: 'object', properties: {} } }],
      callTool: async () => {
        waiting++;
        await new Promise<void>((resolve) => releases.push(resolve));
        return { content: [{ type: 'text', text: 'released' }] };
      },
    });
    platform = await createTestPlatform(await harness(), { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    // The judge answers after JUDGE_MS; an agent asked to "hold" waits until the test lets it.
    const judge = judgeReplies({ delayMs: JUDGE_MS });
    llm = await startScriptedLlm(async (req) => {
      if (userMessage(req.messages) !== 'hold') return judge(req);
      waiting++;
      await new Promise<void>((resolve) => releases.push(resolve));
      return { content: 'held answer' };
    });
  });
  after(async () => {
    for (const release of releases.splice(0)) release();
    await peer?.close();
    await llm?.close();
    await platform?.close();
  });

  it('cancels a running eval run before the purge: it ends cancelled and its judge is not called from 8 s on', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const key = 'sk-deleted-workspace-key-0001';
    const api = evalApi(platform.app, tenant);
    const agent = { ...(await api.agent('doomed', 'gpt-4o')), workspace_id: tenant.workspaceId };
    await api.connect('openai', key, llm.baseUrl);
    const set = await api.evalSet('doomed', { name: 'long', judge_samples: 1 });
    await seedCases(platform.runtime.db, agent, set.id, CASES, true);
    const judgeCalls = () => llm.requests.filter((req) => req.authorization === `Bearer ${key}`);

    const run = await api.trigger('doomed', 'long');
    await waitFor('the run to be judging', async () => judgeCalls().length >= 20, 60_000);
    await request(platform.app).delete(`/api/workspaces/${tenant.workspaceId}`).set(tenant.auth).expect(202);
    const accepted = Date.now();

    const deletion = platform.runtime.temporal.client.workflow.getHandle(
      workflowIds.workspaceDeletion(tenant.workspaceId),
    );
    const result = await deletion.result();
    const workflow = platform.runtime.temporal.client.workflow.getHandle(workflowIds.evalRun(run.id));
    const described = await workflow.describe();
    assert.equal(described.status.name, 'CANCELLED');
    assert.equal(described.typedSearchAttributes.get(EvalRunStatusKey), 'cancelled');
    assert.equal(result.runs_cancelled, 1, JSON.stringify(result));

    // Watch the provider past the bound, then look for any call made after it.
    await waitFor('the quiet window to pass', async () => Date.now() > accepted + QUIET_AFTER_MS + 4_000, 30_000);
    const late = judgeCalls().filter((req) => req.receivedAt >= accepted + QUIET_AFTER_MS);
    assert.deepEqual(
      late.map((req) => req.receivedAt - accepted),
      [],
      'judge calls made (ms after the 202) for the deleted workspace',
    );
    assert.ok(judgeCalls().length < CASES, 'the run was stopped before its end');
  });

  it("drops a deleted workspace's cached judge sessions on the worker, and keeps the others'", async () => {
    const judge: RunJudge = { provider: 'openai', model: 'gpt-4o', source: 'workspace' };
    const [doomed, kept] = await Promise.all([1, 2].map(() => createTenant(platform.runtime.db, 'owner')));
    for (const tenant of [doomed, kept])
      await evalApi(platform.app, tenant).connect('openai', `sk-cached-session-${tenant.workspaceId}`, llm.baseUrl);
    const { db, vault } = platform.runtime;
    const deps = createActivityDeps(
      { db, vault, logger: platform.logger, config: platform.config, tracing: null },
      'session-cache-test',
      platform.runtime.temporal.client,
    );
    const connections = createJudgeConnections(deps);
    try {
      const doomedFirst = await connections.get('run-of-doomed', doomed.workspaceId, judge);
      const keptFirst = await connections.get('run-of-kept', kept.workspaceId, judge);
      assert.equal(await connections.get('run-of-doomed', doomed.workspaceId, judge), doomedFirst, 'cached');

      await markWorkspaceDeleted(db, doomed.workspaceId);
      await waitFor(
        'the deleted workspace session to be dropped',
        async () => (await connections.get('run-of-doomed', doomed.workspaceId, judge)) !== doomedFirst,
        20_000,
      );
      assert.equal(await connections.get('run-of-kept', kept.workspaceId, judge), keptFirst);
    } finally {
      await deps.egress.close();
    }
  });

  it('cancels a running flow run before the purge: it ends cancelled', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    const server = await api.send('post', '/api/v1/mcp-servers', 201, {
      name: 'waiter',
      transport: 'http',
      config: { url: peer.url, headers: { Authorization: 'Bearer $SECRET_VALUE' } },
      secret_value: 'deletion-flow-token-0001',
    });
    await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
    const nodes = [{ id: 'held', kind: 'mcp.call_tool', mcp_server_id: server.id, tool_name: 'wait', parameters: {} }];
    const flow = await api.send('post', '/api/v1/flows', 201, { name: 'held', nodes });
    const before = waiting;
    const run = await api.send('post', `/api/v1/flows/${flow.id}/runs`, 201, { variables: {} });
    await waitFor('the flow node to be running', async () => waiting > before, 60_000);

    await request(platform.app).delete(`/api/workspaces/${tenant.workspaceId}`).set(tenant.auth).expect(202);
    const deletion = platform.runtime.temporal.client.workflow.getHandle(
      workflowIds.workspaceDeletion(tenant.workspaceId),
    );
    const result = await deletion.result();
    const workflow = platform.runtime.temporal.client.workflow.getHandle(workflowIds.flowRun(run.id));
    assert.equal((await workflow.describe()).status.name, 'CANCELLED');
    assert.equal(result.runs_cancelled, 1, JSON.stringify(result));
  });

  it('cancels a running production agent run before the purge: it ends cancelled', async () => {
    const tenant = await createTenant(platform.runtime.db, 'owner');
    const api = evalApi(platform.app, tenant);
    await api.connect('openai', 'sk-deleted-agent-run-0001', llm.baseUrl);
    await publishedAgent(api, 'desk', 'gpt-4o');
    const before = waiting;
    const answered = request(platform.app)
      .post('/api/ai-agents/desk/runs')
      .set(tenant.auth)
      .send({ message: 'hold' })
      .then((res) => res.status);
    await waitFor('the agent to be asked', async () => waiting > before, 60_000);
    const [row] = await platform.runtime.db
      .selectFrom('agent_runs')
      .select('key')
      .where('workspace_id', '=', tenant.workspaceId)
      .execute();

    await request(platform.app).delete(`/api/workspaces/${tenant.workspaceId}`).set(tenant.auth).expect(202);
    const deletion = platform.runtime.temporal.client.workflow.getHandle(
      workflowIds.workspaceDeletion(tenant.workspaceId),
    );
    const result = await deletion.result();
    const workflow = platform.runtime.temporal.client.workflow.getHandle(row.key);
    assert.equal((await workflow.describe()).status.name, 'CANCELLED');
    assert.equal(result.runs_cancelled, 1, JSON.stringify(result));
    assert.notEqual(await answered, 201, 'the cancelled run answers no conversation');
  });
});
