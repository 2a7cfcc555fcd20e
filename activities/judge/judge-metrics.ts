import { ProviderCallError, type JsonChatReply } from '../../lib/outbound/llm/provider-client';
import { judgeCallDuration, judgeCalls, judgeTokens } from '../../lib/metrics';

/**
 * Runs one judge call, timing it and counting it by provider and outcome (`ok`, the provider failure's kind, or
 * `error` for anything else, such as an abort), with the tokens its reply used.
 */
export async function measuredJudgeCall(provider: string, call: () => Promise<JsonChatReply>): Promise<JsonChatReply> {
  const stop = judgeCallDuration.startTimer({ provider });
  try {
    const reply = await call();
    judgeCalls.inc({ provider, outcome: 'ok' });
    judgeTokens.inc({ provider, kind: 'prompt' }, reply.usage.prompt_tokens);
    judgeTokens.inc({ provider, kind: 'completion' }, reply.usage.completion_tokens);
    return reply;
  } catch (error) {
    judgeCalls.inc({ provider, outcome: error instanceof ProviderCallError ? error.kind : 'error' });
    throw error;
  } finally {
    stop();
  }
}
