import { harness } from '../test/helpers/harness';
import { judgeReplies } from '../test/helpers/eval-api';
import { startScriptedLlm } from '../test/helpers/scripted-llm';
import {
  JUDGE_DELAY_MS,
  benchPlatform,
  printWallIdeal,
  checkNothingLost,
  runToEnd,
  seedBenchSet,
} from './eval-bench-steps';

const CONCURRENCY = 32;
const TURNS = 5;

/**
 * `npm run bench -- multiturn`: cases of 5 turns, each turn one call and one judged reply. Judge-bound: 1,000 cases
 * (BENCH_CASES) at concurrency 32 against the ideal (judge calls × 200 ms ÷ 32); orchestration-bound: cases
 * (BENCH_LARGE_CASES, 10,000) without the judge, in turns/s. Every run must end with exactly one result per case.
 */
export async function multiTurnBench(): Promise<void> {
  const judgedCases = Number(process.env.BENCH_CASES ?? 1000);
  const largeCases = Number(process.env.BENCH_LARGE_CASES ?? 10_000);
  const llm = await startScriptedLlm(judgeReplies({ delayMs: JUDGE_DELAY_MS }));
  const platform = await benchPlatform(await harness(), CONCURRENCY);
  try {
    await platform.startWorker();
    // A short run first, not measured: the worker's first workflow task, JIT and connections are a one-time cost.
    await runToEnd(platform, await seedBenchSet(platform, llm.baseUrl, 'mt-warm-up', CONCURRENCY, true, TURNS));
    const judged = await seedBenchSet(platform, llm.baseUrl, 'mt-judged', judgedCases, true, TURNS);
    const before = llm.requests.length;
    const finished = await runToEnd(platform, judged);
    const calls = llm.requests.length - before;
    console.log(
      `multi-turn judged: ${judgedCases} cases × ${TURNS} turns, ${calls} judge calls at ${JUDGE_DELAY_MS} ms, concurrency ${CONCURRENCY}`,
    );
    printWallIdeal(finished, calls, CONCURRENCY);
    await checkNothingLost(platform, judged, finished.runId);
    const large = await seedBenchSet(platform, llm.baseUrl, 'mt-trajectory', largeCases, false, TURNS);
    const done = await runToEnd(platform, large);
    const turnsPerSecond = (largeCases * TURNS * 1000) / done.wallMs;
    console.log(
      `multi-turn trajectory-only: ${largeCases} cases × ${TURNS} turns in ${(done.wallMs / 1000).toFixed(1)} s = ${turnsPerSecond.toFixed(0)} turns/s (${((largeCases * 1000) / done.wallMs).toFixed(0)} cases/s), concurrency ${CONCURRENCY}`,
    );
    await checkNothingLost(platform, large, done.runId);
  } finally {
    await platform.close();
    await llm.close();
  }
}
