import { insertConversation } from '../db/conversation.repository';
import { insertEvalCase } from '../db/eval-case.repository';
import { evalApi, judgeReplies } from '../test/helpers/eval-api';
import { harness } from '../test/helpers/harness';
import { createTestPlatform, type TestPlatform } from '../test/helpers/platform';
import { startScriptedLlm } from '../test/helpers/scripted-llm';
import { createTenant, type Tenant } from '../test/helpers/tenants';

const JUDGE_DELAY_MS = 200;

interface Seeded {
  agent: { id: string; workspace_id: string; name: string };
  set: string;
}

// Bounded parallel inserts through the same repositories the API uses.
async function inBatches(count: number, width: number, insert: (i: number) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < count; start += width) {
    await Promise.all(Array.from({ length: Math.min(width, count - start) }, (_, k) => insert(start + k)));
  }
}

async function seedSet(
  platform: TestPlatform,
  tenant: Tenant,
  name: string,
  cases: number,
  judged: boolean,
): Promise<Seeded> {
  const api = evalApi(platform.app, tenant);
  const agent = { ...(await api.agent(name, 'gpt-4o')), workspace_id: tenant.workspaceId };
  const set = await api.evalSet(name, { name: 'bench', judge_samples: 1 });
  await inBatches(cases, 16, async (i) => {
    const conversation = await insertConversation(platform.runtime.db, agent, {
      session_input: { message: `question ${i}` },
      messages: [],
      final_response: `answer ${i}`,
      guardrail_events: [],
      tool_calls: [{ tool_name: 'lookup', tool_args: { id: i } }],
      model: 'gpt-4o',
      token_usage: null,
      source: 'imported',
    });
    await insertEvalCase(platform.runtime.db, set.id, {
      name: `case ${i}`,
      session_input: { message: `question ${i}` },
      expected_trajectory: [{ tool_name: 'lookup', tool_args: { id: i } }],
      expected_final_response: judged ? `answer ${i}` : null,
      rubrics: null,
      source_run_id: conversation.id,
      snapshot: null,
    });
  });
  return { agent, set: set.id };
}

async function runToEnd(
  platform: TestPlatform,
  tenant: Tenant,
  seeded: Seeded,
): Promise<{ runId: string; wallMs: number; run: any }> {
  const api = evalApi(platform.app, tenant);
  const started = Date.now();
  const run = await api.trigger(seeded.agent.name, seeded.set);
  const done = await api.settle(seeded.agent.name, run.id, 3_600_000);
  if (done.status !== 'completed') throw new Error(`run ${run.id} ${done.status}: ${done.error}`);
  return { runId: run.id, wallMs: Date.now() - started, run: done };
}

async function longestHistory(
  platform: TestPlatform,
  runId: string,
): Promise<{ executions: number; maxEvents: number }> {
  let executions = 0;
  let maxEvents = 0;
  for await (const execution of platform.runtime.temporal.client.workflow.list({
    query: `WorkflowId = "eval-run:${runId}"`,
  })) {
    executions += 1;
    maxEvents = Math.max(maxEvents, execution.historyLength);
  }
  return { executions, maxEvents };
}

/** `npm run bench -- eval`: judge-bound throughput against the ideal, and history size of a 10,000-case run. */
export async function evalBench(): Promise<void> {
  const judgedCases = Number(process.env.BENCH_CASES ?? 1000);
  const largeCases = Number(process.env.BENCH_LARGE_CASES ?? 10_000);
  const llm = await startScriptedLlm(judgeReplies({ delayMs: JUDGE_DELAY_MS }));
  const platform = await createTestPlatform(await harness(), {
    env: { EGRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'warn' },
  });
  try {
    await platform.startWorker();
    const tenant = await createTenant(platform.runtime.db, 'admin');
    await evalApi(platform.app, tenant).connect('openai', 'sk-bench', llm.baseUrl);
    const concurrency = platform.config.EVAL_CONCURRENCY;

    const judged = await seedSet(platform, tenant, 'bench-judged', judgedCases, true);
    const before = llm.requests.length;
    const first = await runToEnd(platform, tenant, judged);
    const calls = llm.requests.length - before;
    const idealMs = (calls * JUDGE_DELAY_MS) / concurrency;
    console.log(
      `eval throughput: ${judgedCases} cases, ${calls} judge calls at ${JUDGE_DELAY_MS} ms, concurrency ${concurrency}`,
    );
    console.log(
      `  wall ${(first.wallMs / 1000).toFixed(1)} s, ideal ${(idealMs / 1000).toFixed(1)} s, wall/ideal = ${(first.wallMs / idealMs).toFixed(2)}`,
    );

    const large = await seedSet(platform, tenant, 'bench-large', largeCases, false);
    const second = await runToEnd(platform, tenant, large);
    const history = await longestHistory(platform, second.runId);
    const verdict = history.maxEvents < 10_240 ? 'under' : 'OVER';
    console.log(
      `eval history: ${largeCases} cases in ${(second.wallMs / 1000).toFixed(1)} s (${((largeCases * 1000) / second.wallMs).toFixed(0)} cases/s)`,
    );
    console.log(
      `  ${history.executions} workflow executions (continue-as-new), longest history ${history.maxEvents} events (${verdict} the 10,240 limit)`,
    );
    console.log(
      `  results stored: ${second.run.scored_cases}/${second.run.total_cases}, pass rate ${second.run.summary.pass_rate}`,
    );
  } finally {
    await platform.close();
    await llm.close();
  }
}
