import assert from 'node:assert/strict';
import type { WorkflowHandle } from '@temporalio/client';
import { recordCaseResult } from '../../db/case-result.repository';
import { waitFor } from '../../lib/embedded/process-utils';
import { EvalRunStatusKey, workflowIds } from '../../workflows/temporal-names';
import { publishedAgent, userMessage } from '../helpers/agent-api';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { openRelay, serveWithRelay, type RelayClient, type ServedApi } from '../helpers/relay-client';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const CASES = 3;
const judge = judgeReplies({});
const LATE_RESULT = {
  case_name: 'late',
  conversation_id: null,
  status: 'passed',
  criteria: {},
  error: null,
  judge_usage: null,
  scored_by: 'test',
} as const;

describe('eval runs cancelled or terminated in Temporal end cancelled', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let served: ServedApi;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  // Judge replies pass only when the test lets them; the live agent's model step (message "hold") likewise.
  let judgeGateNow: JudgeGate = judgeGate();
  let agentGate: JudgeGate = judgeGate();
  const clients: RelayClient[] = [];
  const caseIds: string[] = [];

  const handle = (runId: string): WorkflowHandle =>
    platform.runtime.temporal.client.workflow.getHandle(workflowIds.evalRun(runId));
  const holdRequests = (): number => llm.requests.filter((r) => userMessage(r.messages) === 'hold').length;
  const agentRunStatus = async (evalRunId: string): Promise<string | undefined> =>
    (
      await platform.runtime.db
        .selectFrom('agent_runs')
        .select('status')
        .where('eval_run_id', '=', evalRunId)
        .executeTakeFirst()
    )?.status;

  /**
   * Runs the offline set until one case is scored and the next waits on the judge, stops it with `stop`, and checks
   * that it ended cancelled with `error`, a summary of that one case, and the same end on the WebSocket feed.
   */
  const stopAfterOneResult = async (
    stop: (workflow: WorkflowHandle) => Promise<unknown>,
    error: string,
  ): Promise<any> => {
    // Judged afresh each time (an earlier run cached verdicts of these cases), so the judge gate decides the state.
    const started = await api.trigger('scored', 'three', { no_cache: true });
    const client = await openRelay(served.wsUrl, { protocolToken: tenant.token });
    clients.push(client);
    client.subscribe(started.id);
    await client.waitFor((m) => m.type === 'snapshot' && m.run_id === started.id);
    judgeGateNow.release(1);
    await client.waitFor((m) => m.type === 'case_result' && m.run_id === started.id, 60_000);
    await stop(handle(started.id));
    const end = await client.waitFor((m) => m.type === 'run_status' && m.run_id === started.id, 60_000);
    const run = await api.waitForEnd('scored', started.id);
    assert.deepEqual([run.status, run.error], ['cancelled', error]);
    assert.ok(run.completed_at);
    assert.equal((await api.results('scored', started.id)).length, 1);
    assert.deepEqual(run.summary.counts, { total: 1, passed: 1, failed: 0, error: 0 });
    assert.deepEqual(end, { type: 'run_status', run_id: run.id, status: 'cancelled', summary: run.summary, error });
    // A scoring that outlives the run (its activity not told yet) writes nothing: the summary and count stay true.
    const [scored] = await api.results('scored', started.id);
    const late = caseIds.find((id) => id !== scored.case_id) ?? '';
    const write = await recordCaseResult(platform.runtime.db, { ...LATE_RESULT, run_id: run.id, case_id: late });
    assert.deepEqual(write, { inserted: false });
    assert.deepEqual((await api.send('get', `/api/ai-agents/scored/eval-runs/${run.id}`, 200)).data, run);
    return run;
  };

  before(async () => {
    platform = await createTestPlatform(await harness(), {
      // One case at a time, so "one case scored, the next one waiting on the judge" is an exact state.
      env: { EGRESS_ALLOWLIST: '127.0.0.1', EVAL_CONCURRENCY: '1', RUN_SWEEP_SECONDS: '1' },
    });
    await platform.startWorker();
    llm = await startScriptedLlm(async (req) => {
      if (userMessage(req.messages) === 'hold') {
        await agentGate.acquire();
        return { content: 'held answer' };
      }
      await judgeGateNow.acquire();
      return judge(req);
    });
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.connect('openai', 'sk-cancellation-test-key-0001', llm.baseUrl);
    await api.agent('scored', 'gpt-4o');
    const set = await api.evalSet('scored', { name: 'three' });
    for (let i = 0; i < CASES; i++) {
      const conversation = await api.importRun('scored', {
        session_input: { message: `question ${i}` },
        final_response: `answer ${i}`,
      });
      caseIds.push((await api.promote('scored', conversation.id, set.id, `case ${i}`)).id);
    }
    await publishedAgent(api, 'live', 'gpt-4o');
    await api.evalSet('live', { name: 'held' });
    await api.addCase('live', 'held', { name: 'held', session_input: { message: 'hold' }, expected_trajectory: [] });
    served = await serveWithRelay(platform.app, {
      config: platform.config,
      db: platform.runtime.db,
      logger: platform.logger,
    });
  });
  beforeEach(() => {
    judgeGateNow = judgeGate();
    agentGate = judgeGate();
  });
  afterEach(() => {
    judgeGateNow.release(Infinity);
    agentGate.release(Infinity);
    for (const client of clients.splice(0)) client.close();
  });
  after(async () => {
    await served?.close();
    await llm?.close();
    await platform?.close();
  });

  it('ends a run whose workflow is cancelled as cancelled, summarising the cases scored before, with a final run_status', async () => {
    const run = await stopAfterOneResult((workflow) => workflow.cancel(), 'the run was cancelled');
    // The row ends in the workflow's last activity, just before the workflow closes: wait for it to close.
    await handle(run.id)
      .result()
      .catch(() => undefined);
    const described = await handle(run.id).describe();
    assert.equal(described.status.name, 'CANCELLED');
    assert.equal(described.typedSearchAttributes.get(EvalRunStatusKey), 'cancelled');
  });

  it('ends a run whose workflow is terminated as cancelled: the worker sweep settles it and the feed ends', async () => {
    const run = await stopAfterOneResult(
      (workflow) => workflow.terminate('stopped by an operator'),
      'the run was terminated in Temporal',
    );
    assert.equal((await handle(run.id).describe()).status.name, 'TERMINATED');
  });

  for (const [how, stop] of [
    ['cancelled', (workflow: WorkflowHandle) => workflow.cancel()],
    ['terminated', (workflow: WorkflowHandle) => workflow.terminate('stopped by an operator')],
  ] as const) {
    it(`ends a live run ${how} mid-step and the sandbox agent run of its case cancelled too`, async () => {
      const asked = holdRequests();
      const started = await api.trigger('live', 'held', { mode: 'live' });
      await waitFor('the agent to be asked', async () => holdRequests() > asked, 60_000);
      assert.equal(await agentRunStatus(started.id), 'running');
      await stop(handle(started.id));
      const run = await api.waitForEnd('live', started.id);
      assert.equal(run.status, 'cancelled', run.error);
      await waitFor('the agent run to end', async () => (await agentRunStatus(started.id)) !== 'running', 30_000);
      assert.equal(await agentRunStatus(started.id), 'cancelled');
    });
  }
});
