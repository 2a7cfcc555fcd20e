import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { evalApi, judgeAsk, judgeReplies } from '../helpers/eval-api';
import { seedCases } from '../helpers/eval-seed';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

const CASES = 500;
const RELEASED = 40;
const judge = judgeReplies({});

interface StoredResult {
  id: string;
  case_id: string;
  status: string;
  created_at: Date;
}

describe('eval run actions: cancel and retry-errors through the API', function () {
  this.timeout(240_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  // Judge replies pass only when the test lets them; a mumbled-at message gets no usable verdict (the case ends error).
  let gate: JudgeGate = judgeGate();
  const mumbledAt = new Set<string>();

  const storedResults = async (runId: string): Promise<StoredResult[]> =>
    platform.runtime.db
      .selectFrom('case_results')
      .select(['id', 'case_id', 'status', 'created_at'])
      .where('run_id', '=', runId)
      .orderBy('case_id')
      .execute();
  const seededAgent = async (name: string) => ({
    ...(await api.agent(name, 'gpt-4o')),
    workspace_id: tenant.workspaceId,
  });
  const action = (agent: string, runId: string, what: 'cancel' | 'retry-errors', status: number) =>
    api.send('post', `/api/ai-agents/${agent}/eval-runs/${runId}/${what}`, status);

  before(async () => {
    // No sweep during the tests: a run whose workflow is gone stays unsettled until the API's cancel settles it.
    platform = await createTestPlatform(await harness(), {
      env: { EGRESS_ALLOWLIST: '127.0.0.1', RUN_SWEEP_SECONDS: '3600' },
    });
    await platform.startWorker();
    llm = await startScriptedLlm(async (req) => {
      await gate.acquire();
      return mumbledAt.has(judgeAsk(req).user_input) ? { content: 'Well, it depends.' } : judge(req);
    });
    tenant = await createTenant(platform.runtime.db, 'owner');
    api = evalApi(platform.app, tenant);
    await api.connect('openai', 'sk-run-actions-test-key-0001', llm.baseUrl);
  });
  beforeEach(() => {
    gate = judgeGate();
  });
  afterEach(() => {
    gate.release(Infinity);
    mumbledAt.clear();
  });
  after(async () => {
    await llm?.close();
    await platform?.close();
  });

  it('cancels a running 500-case run: it ends cancelled, keeps the results it stored, scores no case twice and says how many were not scored', async () => {
    const agent = await seededAgent('bulk');
    const set = await api.evalSet('bulk', { name: 'five hundred', judge_samples: 1 });
    await seedCases(platform.runtime.db, agent, set.id, CASES, true);
    const judgedBefore = llm.requests.length;
    const started = await api.trigger('bulk', set.id);
    assert.equal(started.retry_of, null);

    const notEnded = await action('bulk', started.id, 'retry-errors', 409);
    assert.equal(notEnded.error.code, 'run_not_ended');

    gate.release(RELEASED);
    await waitFor('the released cases to be stored', async () => (await storedResults(started.id)).length >= RELEASED);
    const before = await storedResults(started.id);
    assert.equal(before.length, RELEASED);

    const accepted = (await action('bulk', started.id, 'cancel', 202)).data;
    assert.equal(accepted.id, started.id);
    assert.ok(['running', 'cancelled'].includes(accepted.status), accepted.status);
    const run = await api.waitForEnd('bulk', started.id);
    assert.deepEqual([run.status, run.error], ['cancelled', 'the run was cancelled']);
    assert.ok(run.completed_at);

    // Cases that were waiting on the judge get their replies now: the cancelled run takes none of them.
    gate.release(Infinity);
    const workflow = platform.runtime.temporal.client.workflow.getHandle(workflowIds.evalRun(run.id));
    await workflow.result().catch(() => undefined);
    assert.equal((await workflow.describe()).status.name, 'CANCELLED');

    const after = await storedResults(run.id);
    const kept = new Map(after.map((result) => [result.case_id, result]));
    for (const result of before) assert.deepEqual(kept.get(result.case_id), result, 'a stored result is unchanged');
    assert.equal(kept.size, after.length, 'no case has two results');
    assert.equal(run.scored_cases, after.length);
    assert.equal(run.summary.counts.total, after.length);
    assert.equal(run.summary.not_scored, CASES - after.length);
    assert.ok(run.summary.not_scored > 0, 'the cancel stopped the run before its end');
    // Each case was judged at most once: no batch re-ran a case it had started.
    const asked = llm.requests.slice(judgedBefore).map((req) => judgeAsk(req).user_input);
    assert.equal(new Set(asked).size, asked.length);

    const again = await action('bulk', run.id, 'cancel', 409);
    assert.equal(again.error.code, 'run_ended');
    assert.deepEqual(again.error.details, { status: 'cancelled' });
    assert.deepEqual((await api.send('get', `/api/ai-agents/bulk/eval-runs/${run.id}`, 200)).data, run);
  });

  it('settles a run whose workflow is already gone as cancelled at once, every case not scored', async () => {
    const agent = await seededAgent('gone');
    const set = await api.evalSet('gone', { name: 'three', judge_samples: 1 });
    await seedCases(platform.runtime.db, agent, set.id, 3, true);
    const started = await api.trigger('gone', set.id);
    const workflow = platform.runtime.temporal.client.workflow.getHandle(workflowIds.evalRun(started.id));
    await workflow.terminate('lost before the cancel');
    const unsettled = (await api.send('get', `/api/ai-agents/gone/eval-runs/${started.id}`, 200)).data;
    assert.ok(['queued', 'running'].includes(unsettled.status), unsettled.status);

    const run = (await action('gone', started.id, 'cancel', 202)).data;
    assert.deepEqual([run.status, run.error], ['cancelled', 'the run was cancelled']);
    assert.deepEqual(run.summary.counts, { total: 0, passed: 0, failed: 0, error: 0 });
    assert.equal(run.summary.not_scored, 3);
    assert.equal((await action('gone', started.id, 'cancel', 409)).error.code, 'run_ended');
  });

  it('retries only the cases that ended error, as a new run linked to the first', async () => {
    gate.release(Infinity);
    const agent = await seededAgent('flaky');
    const set = await api.evalSet('flaky', { name: 'six', judge_samples: 1 });
    const caseIds = await seedCases(platform.runtime.db, agent, set.id, 6, true);
    for (const i of [1, 3, 4]) mumbledAt.add(`question ${i}`);
    // Judged afresh (the retry inherits it): verdicts cached for the same questions by the cancelled run above, whose
    // orphaned batches are judged once its gate opens, would otherwise pass the mumbled cases.
    const trigger = { min_scores: { rubric_based: 0.9 }, tags: ['main', 'sha:abc123'], no_cache: true };
    const first = await api.waitForEnd('flaky', (await api.trigger('flaky', set.id, trigger)).id);
    assert.equal(first.status, 'completed', first.error);
    assert.deepEqual(first.summary.counts, { total: 6, passed: 3, failed: 0, error: 3 });
    assert.equal(first.summary.not_scored, undefined);
    const errored = (await storedResults(first.id)).filter((r) => r.status === 'error').map((r) => r.case_id);
    assert.deepEqual(errored.sort(), [caseIds[1], caseIds[3], caseIds[4]].sort());

    mumbledAt.clear();
    const judgedBefore = llm.requests.length;
    const queued = (await action('flaky', first.id, 'retry-errors', 201)).data;
    assert.equal(queued.retry_of, first.id);
    assert.notEqual(queued.id, first.id);
    assert.deepEqual(
      [
        queued.status,
        queued.eval_set_id,
        queued.mode,
        queued.run_selection,
        queued.min_scores,
        queued.judge_samples,
        queued.tags,
      ],
      [
        'queued',
        set.id,
        first.mode,
        first.run_selection,
        first.min_scores,
        first.judge_samples,
        ['main', 'sha:abc123'],
      ],
    );
    const listed = await api.send('get', `/api/ai-agents/flaky/eval-runs/${queued.id}/cases`, 200);
    assert.deepEqual(listed.data.map((c: { id: string }) => c.id).sort(), errored.sort());

    const retry = await api.waitForEnd('flaky', queued.id);
    assert.equal(retry.status, 'completed', retry.error);
    assert.equal(retry.total_cases, 3);
    assert.deepEqual(retry.summary.counts, { total: 3, passed: 3, failed: 0, error: 0 });
    const rescored = await storedResults(retry.id);
    assert.deepEqual(rescored.map((r) => r.case_id).sort(), errored.sort());
    const asked = llm.requests.slice(judgedBefore).map((req) => judgeAsk(req).user_input);
    assert.deepEqual(asked.sort(), ['question 1', 'question 3', 'question 4']);
    // The first run is as it was.
    assert.deepEqual((await api.send('get', `/api/ai-agents/flaky/eval-runs/${first.id}`, 200)).data, first);

    const nothingToRetry = await action('flaky', retry.id, 'retry-errors', 409);
    assert.equal(nothingToRetry.error.code, 'no_error_cases');
    const ended = await action('flaky', first.id, 'cancel', 409);
    assert.equal(ended.error.code, 'run_ended');
  });

  it('retries an explicit run with the conversations it chose', async () => {
    gate.release(Infinity);
    const agent = await seededAgent('chooser');
    const set = await api.evalSet('chooser', { name: 'two', judge_samples: 1 });
    const [chosenCase] = await seedCases(platform.runtime.db, agent, set.id, 2, true);
    // The case's expected call is made, so only the (mumbling) judge could decide it: it ends error, not failed.
    const chosen = await api.importRun('chooser', {
      session_input: { message: 'question 0' },
      tool_calls: [{ tool_name: 'lookup', tool_args: { id: 0 } }],
      final_response: 'a different answer',
    });
    mumbledAt.add('question 0');
    const conversations = { [chosenCase]: chosen.id };
    const first = await api.waitForEnd(
      'chooser',
      (await api.trigger('chooser', set.id, { run_selection: 'explicit', conversations })).id,
    );
    assert.deepEqual(first.summary.counts, { total: 2, passed: 1, failed: 0, error: 1 });

    mumbledAt.clear();
    const queued = (await action('chooser', first.id, 'retry-errors', 201)).data;
    assert.deepEqual([queued.run_selection, queued.conversations], ['explicit', conversations]);
    const retry = await api.waitForEnd('chooser', queued.id);
    const [result] = await api.results('chooser', retry.id);
    assert.deepEqual(
      [retry.total_cases, result.case_id, result.conversation_id, result.status],
      [1, chosenCase, chosen.id, 'failed'],
    );
  });

  it("answers 404 for another workspace's run and changes nothing", async () => {
    gate.release(Infinity);
    await seededAgent('shared');
    await api.evalSet('shared', { name: 'one', judge_samples: 1 });
    await api.addCase('shared', 'one', { name: 'hand written', session_input: { message: 'hi' } });
    const run = await api.waitForEnd('shared', (await api.trigger('shared', 'one')).id);
    assert.deepEqual(run.summary.counts, { total: 1, passed: 0, failed: 0, error: 1 });

    const other = createTenant(platform.runtime.db, 'owner');
    const stranger = evalApi(platform.app, await other);
    await stranger.agent('shared', 'gpt-4o');
    for (const what of ['cancel', 'retry-errors'] as const) {
      const refused = await stranger.send('post', `/api/ai-agents/shared/eval-runs/${run.id}/${what}`, 404);
      assert.equal(refused.error.code, 'not_found');
    }
    const runs = await api.send('get', '/api/ai-agents/shared/eval-sets/one/runs', 200);
    assert.deepEqual(
      runs.data.map((r: { id: string }) => r.id),
      [run.id],
    );
    const { rows } = await sql<{ count: number }>`
      SELECT count(*)::int AS count FROM eval_runs WHERE retry_of = ${run.id}`.execute(platform.runtime.db);
    assert.equal(rows[0].count, 0);
  });
});
