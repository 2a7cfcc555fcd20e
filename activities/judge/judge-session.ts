import type { JudgeUsage, RunJudge } from '../../db/tables/eval-run.table';
import type { CachedJudgeReply } from '../../db/tables/judge-verdict-cache.table';
import {
  parseMatchVerdict,
  parseRubricVerdicts,
  type MatchVerdict,
  type RubricVerdict,
} from '../../domain/scoring/judge-output.parser';
import { finalResponsePrompt, rubricsPrompt, type JudgeMessage } from '../../domain/scoring/judge-prompts';
import { ProviderCallError, type JsonChatReply } from '../../lib/outbound/llm/provider-client';
import { JudgeCallBoundReached, type BudgetedFetch } from './judge-call-budget';
import type { JudgeCall } from './judge-call-span';
import { withCaseFetch, type JudgeConnection } from './judge-connections.service';
import { measuredJudgeCall } from './judge-metrics';
import type { JudgeCacheCounts, VerdictCache } from './judge-verdict-cache.service';

/** Reads a reply: null when it is unusable (asked again). */
export type Parse<T> = (content: string) => T | null;

// A reply that cannot be parsed is asked again; after this many unusable replies the sample counts as no verdict.
const PARSE_ATTEMPTS = 3;

/** Where a criterion's samples start: sample i is the case's sample `sampleOffset + i` (repeat r starts at r × samples). */
export interface SampleOffset {
  sampleOffset?: number;
}

/** The judge of one case: sampled verdicts per criterion and the token usage of every call made. */
export interface JudgeSession {
  sampleMatch(
    input: { userInput: string; expected: string; actual: string } & SampleOffset,
    samples: number,
  ): Promise<Array<MatchVerdict | null>>;
  sampleRubrics(
    input: { userInput: string; response: string; rubrics: readonly string[] } & SampleOffset,
    samples: number,
  ): Promise<Array<RubricVerdict[] | null>>;
  /** A verdict per item of a prompt built elsewhere (the scenario criteria), parsed like rubric verdicts. */
  sampleItems(
    input: { messages: JudgeMessage[]; items: number } & SampleOffset,
    samples: number,
  ): Promise<Array<RubricVerdict[] | null>>;
  /** One judge-like call (the simulated user's next turn): sample `sampleIndex` of `messages`, through the same cache,
   * budget and endpoint; null when no reply parsed. */
  reply<T>(messages: JudgeMessage[], sampleIndex: number, parse: Parse<T>): Promise<T | null>;
  usage(): JudgeUsage;
  /** The samples the verdict cache answered and those it did not; both 0 when the run opted out (`no_cache`). */
  cache(): JudgeCacheCounts;
}

/** Where a session's calls go: its connection, renewed at most once after the provider refused its key. */
export interface SessionEndpoint {
  /** Replaced when a refused key is read afresh. */
  connection: JudgeConnection;
  /** After a refused key: the integration read afresh, or null when it holds the same key (the refusal stands). */
  renew(rejected: JudgeConnection): Promise<JudgeConnection | null>;
}

interface SessionModel {
  provider: RunJudge['provider'];
  model: string;
  call: JudgeCall;
}

/** What one session remembers across calls: whether a refused key was read afresh, and the last failure's message. */
interface SessionState {
  renewed: boolean;
  lastFailure: string | null;
}

// A transient failure (after the SDK's own retries) is asked again without using up a parse attempt: the case's
// budget of judge calls, not a count here, decides when to stop.
function sessionChat(
  endpoint: SessionEndpoint,
  { provider, model, call }: SessionModel,
  budget: BudgetedFetch,
  signal: AbortSignal,
  state: SessionState,
): (messages: JudgeMessage[]) => Promise<JsonChatReply> {
  return async (messages) => {
    for (;;) {
      const callsBefore = budget.calls();
      try {
        const { client } = endpoint.connection;
        return await call(() =>
          measuredJudgeCall(provider, () =>
            withCaseFetch(budget.fetch, () => client.chatJson({ model, messages, signal })),
          ),
        );
      } catch (error) {
        const refusal = budget.refusal();
        if (refusal instanceof JudgeCallBoundReached) throw new JudgeCallBoundReached(state.lastFailure, refusal.bound);
        if (refusal) throw refusal;
        // The key may have been rotated since it was cached: one fresh read per case before the refusal ends the run.
        if (error instanceof ProviderCallError && error.kind === 'auth' && !state.renewed) {
          state.renewed = true;
          const fresh = await endpoint.renew(endpoint.connection);
          if (fresh) {
            endpoint.connection = fresh;
            continue;
          }
        }
        // Asking again is only safe when the failed ask reached the network: then it spent budget, so this ends.
        const spent = budget.calls() > callsBefore;
        if (!spent || signal.aborted || !(error instanceof ProviderCallError) || error.kind !== 'transient')
          throw error;
        state.lastFailure = error.message;
      }
    }
  };
}

function addUsage(usage: JudgeUsage, reply: JsonChatReply): void {
  usage.calls++;
  usage.prompt_tokens += reply.usage.prompt_tokens;
  usage.completion_tokens += reply.usage.completion_tokens;
  usage.total_tokens += reply.usage.total_tokens;
}

/** One case's judging: samples verdicts through the cache, the budget and the endpoint, and counts usage. */
export function openSession(
  endpoint: SessionEndpoint,
  model: SessionModel,
  budget: BudgetedFetch,
  signal: AbortSignal,
  cache: VerdictCache | null,
): JudgeSession {
  const state: SessionState = { renewed: false, lastFailure: null };
  const cached: JudgeCacheCounts = { hits: 0, misses: 0 };
  const usage: JudgeUsage = { calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const chat = sessionChat(endpoint, model, budget, signal, state);

  // Only a usable reply is cached (`key` set unless the run opted out).
  const ask = async <T>(messages: JudgeMessage[], parse: Parse<T>, key: string | null): Promise<T | null> => {
    for (let attempt = 0; attempt < PARSE_ATTEMPTS; attempt++) {
      const reply = await chat(messages);
      addUsage(usage, reply);
      const parsed = parse(reply.content);
      if (parsed !== null) {
        if (cache && key) await cache.store(key, { content: reply.content, usage: reply.usage });
        return parsed;
      }
      state.lastFailure = 'the reply held no usable verdict';
    }
    return null;
  };

  // Sample i of a call is the absolute sample `offset + i`: a cached one costs no call (and no usage).
  const sample = async <T>(messages: JudgeMessage[], offset: number, samples: number, parse: Parse<T>) => {
    const keys = Array.from({ length: samples }, (_, i) => cache?.key(messages, offset + i) ?? null);
    const hits = cache ? await cache.lookup(keys.filter((key) => key !== null)) : new Map<string, CachedJudgeReply>();
    const results: Array<T | null> = [];
    for (const key of keys) {
      const hit = key ? hits.get(key) : undefined;
      const verdict = hit ? parse(hit.content) : null;
      if (cache) cached[verdict !== null ? 'hits' : 'misses']++;
      results.push(verdict ?? (await ask(messages, parse, key)));
    }
    return results;
  };

  return {
    sampleMatch: (input, samples) =>
      sample(finalResponsePrompt(input), input.sampleOffset ?? 0, samples, parseMatchVerdict),
    sampleRubrics: (input, samples) =>
      sample(rubricsPrompt(input), input.sampleOffset ?? 0, samples, (content) =>
        parseRubricVerdicts(content, input.rubrics.length),
      ),
    sampleItems: (input, samples) =>
      sample(input.messages, input.sampleOffset ?? 0, samples, (content) => parseRubricVerdicts(content, input.items)),
    reply: async (messages, sampleIndex, parse) => (await sample(messages, sampleIndex, 1, parse))[0],
    usage: () => ({ ...usage }),
    cache: () => ({ ...cached }),
  };
}
