import { sql } from 'kysely';
import { evalApi, judgeReplies } from '../test/helpers/eval-api';
import { harness } from '../test/helpers/harness';
import { createTestPlatform, type TestPlatform } from '../test/helpers/platform';
import { promoteCases } from '../test/helpers/promoted-cases';
import { startScriptedLlm, throttledAbove, type ScriptedLlm } from '../test/helpers/scripted-llm';
import { createTenant } from '../test/helpers/tenants';

const JUDGE_DELAY_MS = 200;
const JUDGE_LIMIT = 16;

interface Measured {
  wallMs: number;
  served: number;
  throttled: number;
  /** 429s met after the first burst's calls: the limiter holding the key near what the judge takes. */
  settledThrottled: number;
  settled: number;
  connections: number;
}

// One run of `cases` judged cases against `llm`; checks every case has exactly one result.
async function measure(
  platform: TestPlatform,
  llm: ScriptedLlm,
  name: string,
  cases: number,
  concurrency: string,
): Promise<Measured> {
  const api = evalApi(platform.app, await createTenant(platform.runtime.db, 'admin'));
  await api.agent(name, 'gpt-4o');
  await api.connect('openai', `sk-bench-${name}-key`, llm.baseUrl);
  const set = await api.evalSet(name, { name: 'bench', judge_samples: 1 });
  await promoteCases(api, name, set.id, cases, name);
  const before = llm.requests.length;
  const connectionsBefore = llm.connections();
  const started = Date.now();
  const run = await api.trigger(name, set.id);
  const done = await api.waitForEnd(name, run.id, 3_600_000);
  const wallMs = Date.now() - started;
  if (done.status !== 'completed') throw new Error(`run ${run.id} ${done.status}: ${done.error}`);
  const stored = await sql<{ cases: string; results: string }>`
    SELECT count(DISTINCT case_id) AS cases, count(*) AS results FROM case_results WHERE run_id = ${run.id}`.execute(
    platform.runtime.db,
  );
  const { cases: scored, results } = stored.rows[0];
  if (Number(scored) !== cases || Number(results) !== cases)
    throw new Error(`run ${run.id}: ${results} results for ${scored} of ${cases} cases`);
  const asked = llm.requests.slice(before);
  const throttled = asked.filter((req) => req.inFlight > JUDGE_LIMIT);
  const afterBurst = asked.slice(Math.max(0, asked.indexOf(throttled[0])) + Number(concurrency));
  return {
    wallMs,
    served: asked.length - throttled.length,
    throttled: throttled.length,
    settledThrottled: afterBurst.filter((req) => req.inFlight > JUDGE_LIMIT).length,
    settled: afterBurst.length,
    connections: llm.connections() - connectionsBefore,
  };
}

/**
 * `npm run bench -- aimd`: a judge that answers 429 above 16 calls in flight (200 ms a call) and a concurrency-64 run:
 * 429s against cases, and wall against the 16-concurrent ideal; an unthrottled run at concurrency 16 is the baseline.
 */
export async function aimdBench(): Promise<void> {
  const cases = Number(process.env.BENCH_AIMD_CASES ?? 500);
  const concurrency = process.env.EVAL_CONCURRENCY ?? '64';
  const retryAfter = process.env.BENCH_RETRY_AFTER ?? '1';
  const judge = judgeReplies({ delayMs: JUDGE_DELAY_MS });
  const throttling = await startScriptedLlm(throttledAbove(JUDGE_LIMIT, retryAfter, judge));
  const plain = await startScriptedLlm(judge);
  const run = async (llm: ScriptedLlm, name: string, at: string): Promise<Measured> => {
    const platform = await createTestPlatform(await harness(), {
      vault: 'openbao',
      env: { EGRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'warn', EVAL_CONCURRENCY: at, WORKSPACE_EVAL_CONCURRENCY: at },
    });
    // Counts the worker's vault reads: the judge session should read the key once per run, not once per case.
    const vault = platform.runtime.vault;
    const get = vault.get.bind(vault);
    let reads = 0;
    vault.get = (ref) => {
      reads += 1;
      return get(ref);
    };
    try {
      await platform.startWorker();
      const measured = await measure(platform, llm, name, cases, at);
      console.log(`  ${name}: ${reads} vault reads for ${cases} cases`);
      return measured;
    } finally {
      await platform.close();
    }
  };
  try {
    const ideal = (m: Measured): number => (m.served * JUDGE_DELAY_MS) / JUDGE_LIMIT;
    console.log(
      `eval aimd: ${cases} judged cases, judge ${JUDGE_DELAY_MS} ms a call, 429 (retry-after ${retryAfter}) above ${JUDGE_LIMIT} in flight`,
    );
    const baseline = await run(plain, 'aimd-baseline', String(JUDGE_LIMIT));
    const throttled = await run(throttling, 'aimd-throttled', concurrency);
    console.log(
      `  unthrottled at concurrency ${JUDGE_LIMIT}: wall ${(baseline.wallMs / 1000).toFixed(1)} s, wall/ideal = ${(baseline.wallMs / ideal(baseline)).toFixed(2)}`,
    );
    console.log(
      `  throttled at concurrency ${concurrency}: ${throttled.throttled} 429s for ${cases} cases (${throttled.served} calls served), ` +
        `${throttled.settledThrottled} of them among the ${throttled.settled} calls after the first burst, ${throttled.connections} connections`,
    );
    console.log(
      `  wall ${(throttled.wallMs / 1000).toFixed(1)} s, ideal ${(ideal(throttled) / 1000).toFixed(1)} s, wall/ideal = ${(throttled.wallMs / ideal(throttled)).toFixed(2)} ` +
        `(${(throttled.wallMs / baseline.wallMs).toFixed(2)} × the unthrottled 16-concurrent run)`,
    );
  } finally {
    await throttling.close();
    await plain.close();
  }
}
