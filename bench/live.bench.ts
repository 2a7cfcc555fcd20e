import { toolMessages, userMessage } from '../test/helpers/agent-api';
import { judgeReplies } from '../test/helpers/eval-api';
import { harness } from '../test/helpers/harness';
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
const judge = judgeReplies({ delayMs: JUDGE_DELAY_MS });

// The agent's model and the judge on one scripted server: a judge request's user message is its JSON ask; the agent
// answers "contact <id>" with one tool call (the sandbox answers it), then with a reply, each after 200 ms.
function script(req: ScriptedRequest): ScriptedReply {
  const message = userMessage(req.messages);
  if (message.startsWith('{')) return judge(req);
  const contact = message.slice('contact '.length);
  return toolMessages(req.messages) === 0
    ? { toolCalls: [{ name: 'crm_update_contact', arguments: { contact_id: contact } }], delayMs: JUDGE_DELAY_MS }
    : { content: `updated ${contact}`, delayMs: JUDGE_DELAY_MS };
}

// Case `i`: one expected call and a judged reply.
const liveCase = (i: number) => ({
  name: `case ${i}`,
  session_input: { message: `contact c${i}` },
  expected_trajectory: [{ tool_name: 'crm_update_contact', tool_args: { contact_id: `c${i}` } }],
  expected_final_response: `updated c${i}`,
});

const seedLiveSet = (platform: TestPlatform, judgeUrl: string, name: string, cases: number) =>
  seedPublishedSet(platform, judgeUrl, name, cases, liveCase);

/**
 * `npm run bench -- live`: 200 live cases (BENCH_LIVE_CASES) at concurrency 32, the agent answering with one tool call
 * (answered in the sandbox) then a reply, two model calls and one judged response per case, every call 200 ms:
 * wall/ideal, where ideal = (model + judge calls) × 200 ms ÷ 32. Every run must end with one result per case.
 */
export async function liveBench(): Promise<void> {
  const cases = Number(process.env.BENCH_LIVE_CASES ?? 200);
  const llm = await startScriptedLlm(script);
  const platform = await benchPlatform(await harness(), CONCURRENCY);
  try {
    await platform.startWorker();
    // A short run first, not measured: the worker's first workflow task, JIT and connections are a one-time cost.
    await runToEnd(platform, await seedLiveSet(platform, llm.baseUrl, 'live-warm-up', CONCURRENCY), { mode: 'live' });
    const seeded = await seedLiveSet(platform, llm.baseUrl, 'live-bench', cases);
    const before = llm.requests.length;
    const finished = await runToEnd(platform, seeded, { mode: 'live' });
    const calls = llm.requests.length - before;
    console.log(
      `live: ${cases} cases, ${calls} model and judge calls at ${JUDGE_DELAY_MS} ms, concurrency ${CONCURRENCY}`,
    );
    printWallIdeal(finished, calls, CONCURRENCY);
    await checkNothingLost(platform, seeded, finished.runId);
  } finally {
    await platform.close();
    await llm.close();
  }
}
