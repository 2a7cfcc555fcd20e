import { hostname } from 'node:os';
import { judgeReplies } from '../test/helpers/eval-api';
import { harness } from '../test/helpers/harness';
import { createTestPlatform } from '../test/helpers/platform';
import { startScriptedLlm } from '../test/helpers/scripted-llm';
import { workerPool } from '../test/helpers/worker-process';
import { JUDGE_DELAY_MS, checkNothingLost, runToEnd, seedBenchSet } from './eval-bench-steps';

const CONCURRENCY = 32;

/**
 * `npm run bench -- scale-out`: the same judged cases (BENCH_CASES, 1,000) at concurrency 32 scored by one
 * `assay worker` process, then by two; prints both walls, their ratio and each worker's share (`scored_by`).
 */
export async function evalScaleOutBench(): Promise<void> {
  const cases = Number(process.env.BENCH_CASES ?? 1000);
  const h = await harness();
  const llm = await startScriptedLlm(judgeReplies({ delayMs: JUDGE_DELAY_MS }));
  // No in-process worker: the worker processes are the only pollers of the task queue.
  const platform = await createTestPlatform(h, {
    vault: 'openbao',
    env: { EGRESS_ALLOWLIST: '127.0.0.1', LOG_LEVEL: 'warn', EVAL_CONCURRENCY: String(CONCURRENCY) },
  });
  const workers = workerPool(h, platform.config.TEMPORAL_TASK_QUEUE, {
    WORKSPACE_EVAL_CONCURRENCY: String(CONCURRENCY),
    VAULT_ADDR: h.openbao.address,
    VAULT_TOKEN: h.openbao.token,
  });
  try {
    const seeded = await seedBenchSet(platform, llm.baseUrl, 'bench-scale-out', cases, true);
    const identities: string[] = [];
    const walls: number[] = [];
    console.log(`eval scale-out: ${cases} judged cases, judge ${JUDGE_DELAY_MS} ms, concurrency ${CONCURRENCY}`);
    for (const count of [1, 2]) {
      while (identities.length < count) identities.push(`${(await workers.spawn()).child.pid}@${hostname()}`);
      const finished = await runToEnd(platform, seeded);
      walls.push(finished.wallMs);
      console.log(`  ${count} worker${count > 1 ? 's' : ''}: wall ${(finished.wallMs / 1000).toFixed(1)} s`);
      const tally = await checkNothingLost(platform, seeded, finished.runId);
      const others = Object.keys(tally.perWorker).filter((id) => !identities.includes(id));
      if (others.length) throw new Error(`results scored by workers not started here: ${others.join(', ')}`);
      console.log(`  shares: ${identities.map((id) => `${id} ${tally.perWorker[id] ?? 0}`).join(', ')}`);
    }
    console.log(`  wall two/one = ${(walls[1] / walls[0]).toFixed(2)}`);
  } finally {
    await workers.stopAll();
    await platform.close();
    await llm.close();
  }
}
