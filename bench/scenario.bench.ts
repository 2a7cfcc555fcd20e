import { judgeReplies } from '../test/helpers/eval-api';
import { harness } from '../test/helpers/harness';
import { lastUserMessage } from '../test/helpers/multi-turn-agent';
import { startScriptedLlm, type ScriptedReply, type ScriptedRequest } from '../test/helpers/scripted-llm';
import type { TestPlatform } from '../test/helpers/platform';
import {
  JUDGE_DELAY_MS,
  benchPlatform,
  printWallIdeal,
  checkNothingLost,
  runToEnd,
  seedPublishedSet,
} from './eval-bench-steps';

const CONCURRENCY = 32;
const TURNS = 4;
const judge = judgeReplies({ delayMs: JUDGE_DELAY_MS });

const isSimulator = (req: ScriptedRequest): boolean =>
  req.messages[0]?.role === 'system' && (req.messages[0].content ?? '').startsWith('You are a Simulated User');

// Simulator, agent and judge on one scripted server, each call 200 ms: the simulated user asks `request <n>` after the
// agent's n-th answer and stops after the fourth; the agent answers each message in one model call.
function script(req: ScriptedRequest): ScriptedReply {
  if (isSimulator(req)) {
    const answers = (req.messages[1].content ?? '').split('\n\nagent: ').length - 1;
    const message = answers >= TURNS ? '</finished>' : `request ${answers}`;
    return { content: JSON.stringify({ message }), delayMs: JUDGE_DELAY_MS };
  }
  if (req.body.tools === undefined) return judge(req);
  return { content: `reply ${lastUserMessage(req.messages)}`, delayMs: JUDGE_DELAY_MS };
}

// Scenario `i`: a novice returning a damaged parcel.
const scenarioCase = (i: number) => ({
  name: `scenario ${i}`,
  conversation_scenario: {
    starting_prompt: `my parcel ${i} arrived damaged`,
    conversation_plan: 'ask for a return, then a refund, then a receipt',
    user_persona: 'novice',
  },
});

const seedScenarios = (platform: TestPlatform, judgeUrl: string, name: string, cases: number) =>
  seedPublishedSet(platform, judgeUrl, name, cases, scenarioCase);

const kinds = (requests: ScriptedRequest[]) => ({
  simulator: requests.filter(isSimulator).length,
  agent: requests.filter((r) => !isSimulator(r) && r.body.tools !== undefined).length,
  judge: requests.filter((r) => !isSimulator(r) && r.body.tools === undefined).length,
});

/**
 * `npm run bench -- scenario`: 100 scenario cases (BENCH_SCENARIOS) played live by a simulated user for 4 turns at
 * concurrency 32, then the same set run again unchanged (frozen: the simulator's turns and the judge's verdicts come
 * from the cache). Each prints the calls by kind and wall/ideal, ideal = all calls × 200 ms ÷ 32.
 */
export async function scenarioBench(): Promise<void> {
  const cases = Number(process.env.BENCH_SCENARIOS ?? 100);
  const llm = await startScriptedLlm(script);
  const platform = await benchPlatform(await harness(), CONCURRENCY);
  try {
    await platform.startWorker();
    // A short run first, not measured: the worker's first workflow task, JIT and connections are a one-time cost.
    await runToEnd(platform, await seedScenarios(platform, llm.baseUrl, 'scenario-warm-up', 8), { mode: 'live' });
    const seeded = await seedScenarios(platform, llm.baseUrl, 'scenario-bench', cases);
    for (const label of ['first run', 'frozen re-run']) {
      const before = llm.requests.length;
      const finished = await runToEnd(platform, seeded, { mode: 'live' });
      const calls = kinds(llm.requests.slice(before));
      const total = calls.simulator + calls.agent + calls.judge;
      console.log(
        `scenario ${label}: ${cases} scenarios of ${TURNS} turns, calls: ${calls.simulator} simulator, ${calls.agent} agent, ${calls.judge} judge, concurrency ${CONCURRENCY}`,
      );
      printWallIdeal(finished, total, CONCURRENCY);
      await checkNothingLost(platform, seeded, finished.runId);
    }
  } finally {
    await platform.close();
    await llm.close();
  }
}
