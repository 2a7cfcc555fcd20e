import { harness } from '../test/helpers/harness';
import { judgeReplies } from '../test/helpers/eval-api';
import { startScriptedLlm, type ScriptedLlm } from '../test/helpers/scripted-llm';
import {
  JUDGE_DELAY_MS,
  benchPlatform,
  printWallIdeal,
  checkNothingLost,
  longestHistory,
  printBreakdown,
  runToEnd,
  seedBenchSet,
} from './eval-bench-steps';

const SWEEP = [8, 32, 64];

/** The concurrencies to measure: EVAL_CONCURRENCY alone when it is set, else the sweep. */
function concurrencies(): number[] {
  const set = process.env.EVAL_CONCURRENCY;
  if (set === undefined) return SWEEP;
  const value = Number(set);
  if (!Number.isInteger(value) || value < 1) throw new Error(`EVAL_CONCURRENCY must be a positive integer, not ${set}`);
  return [value];
}

// Judge-bound: a fresh set of judged cases on a platform of this concurrency, against the ideal.
async function judgedThroughput(llm: ScriptedLlm, concurrency: number, cases: number): Promise<void> {
  const platform = await benchPlatform(await harness(), concurrency);
  try {
    await platform.startWorker();
    // A short run first, not measured: the worker's first workflow task, JIT and connections are a one-time cost.
    await runToEnd(
      platform,
      await seedBenchSet(platform, llm.baseUrl, `warm-up-${concurrency}`, concurrency * 2, true),
    );
    const seeded = await seedBenchSet(platform, llm.baseUrl, `bench-judged-${concurrency}`, cases, true);
    const before = llm.requests.length;
    const finished = await runToEnd(platform, seeded);
    const calls = llm.requests.length - before;
    console.log(
      `eval throughput: ${cases} cases, ${calls} judge calls at ${JUDGE_DELAY_MS} ms, concurrency ${concurrency}`,
    );
    printWallIdeal(finished, calls, concurrency);
    await checkNothingLost(platform, seeded, finished.runId);
    await printBreakdown(platform, finished, concurrency, cases);
  } finally {
    await platform.close();
  }
}

// Orchestration-bound: trajectory-only cases (no judge call), cases/s end to end and the size of the histories.
async function largeRun(llm: ScriptedLlm, concurrency: number, cases: number): Promise<void> {
  const platform = await benchPlatform(await harness(), concurrency);
  try {
    await platform.startWorker();
    const seedStart = Date.now();
    const seeded = await seedBenchSet(platform, llm.baseUrl, 'bench-large', cases, false);
    const seedMs = Date.now() - seedStart;
    const finished = await runToEnd(platform, seeded);
    const history = await longestHistory(platform, finished.runId);
    const verdict = history.maxEvents < 10_240 ? 'under' : 'OVER';
    console.log(
      `eval history: ${cases} cases in ${(finished.wallMs / 1000).toFixed(1)} s (${((cases * 1000) / finished.wallMs).toFixed(0)} cases/s), concurrency ${concurrency}, seeded in ${(seedMs / 1000).toFixed(1)} s`,
    );
    console.log(
      `  ${history.executions} workflow executions (continue-as-new), longest history ${history.maxEvents} events (${verdict} the 10,240 limit)`,
    );
    console.log(
      `  results stored: ${finished.run.scored_cases}/${finished.run.total_cases}, pass rate ${finished.run.summary.pass_rate}`,
    );
    await checkNothingLost(platform, seeded, finished.runId);
    await printBreakdown(platform, finished, concurrency, cases);
  } finally {
    await platform.close();
  }
}

/**
 * `npm run bench -- eval`: judge-bound throughput against the ideal at each concurrency (EVAL_CONCURRENCY, or 8, 32
 * and 64), then trajectory-only cases/s and history size of a large run at the last of them; every run must end with
 * exactly one result per case. BENCH_CASES and BENCH_LARGE_CASES size the two (1,000 and 10,000).
 */
export async function evalBench(): Promise<void> {
  const judgedCases = Number(process.env.BENCH_CASES ?? 1000);
  const largeCases = Number(process.env.BENCH_LARGE_CASES ?? 10_000);
  const llm = await startScriptedLlm(judgeReplies({ delayMs: JUDGE_DELAY_MS }));
  try {
    const widths = concurrencies();
    for (const concurrency of widths) await judgedThroughput(llm, concurrency, judgedCases);
    await largeRun(llm, widths[widths.length - 1], largeCases);
  } finally {
    await llm.close();
  }
}
