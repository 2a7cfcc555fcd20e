import OpenAI, {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  type ClientOptions,
} from 'openai';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import type { AgentMessage, RequestedToolCall } from '../../../domain/agent/agent-messages';
import type { JudgeMessage } from '../../../domain/scoring/judge-prompts';
import { limitMessage } from '../../../domain/limit-checks';
import type { Provider } from '../../../domain/agent/model-provider';
import type { FetchLike } from '../egress/capped-body';
import { EgressBlockedError, findEgressError } from '../egress/egress-errors';
import type { EgressGuard } from '../egress/egress-guard';
import { cappedAnswers, ProviderResponseTooLarge } from './capped-answers';

/** How an OpenAI-compatible provider endpoint is reached. */
export interface ProviderClientOptions {
  provider: Provider;
  baseUrl: string;
  apiKey: string;
  /** The egress guard's fetch: every provider call is dialled through it. */
  fetch: EgressGuard['fetch'];
  timeoutMs: number;
  maxRetries: number;
}

/** Token usage of one call. */
export interface CallUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
}

/** A chat completion asked for JSON output. */
export interface JsonChatRequest {
  model: string;
  messages: JudgeMessage[];
  signal?: AbortSignal;
}

/** What a provider answered: the message text (JSON when the provider honoured it) and its usage. */
export interface JsonChatReply {
  content: string;
  usage: CallUsage;
}

/** A chat completion offering tools (an agent's model step). */
export interface ToolChatRequest {
  model: string;
  messages: readonly AgentMessage[];
  tools: ReadonlyArray<{ name: string; description: string; parameters: Record<string, unknown> }>;
  temperature: number | null;
  signal?: AbortSignal;
}

/** What the model answered: text, tool calls to make (function calls only), and usage. */
export interface ToolChatReply {
  content: string | null;
  toolCalls: RequestedToolCall[];
  usage: CallUsage;
}

/** Why a provider call failed after the client's own retries, for callers to decide what retrying can fix. */
export type ProviderFailureKind = 'auth' | 'model_not_found' | 'rejected' | 'blocked' | 'too_large' | 'transient';

/** A failed provider call; the message carries the provider and status, never the key or the provider's text. */
export class ProviderCallError extends Error {
  constructor(
    readonly kind: ProviderFailureKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ProviderCallError';
  }
}

/** A client of one provider's OpenAI-compatible chat completions endpoint. */
export interface ProviderClient {
  chatJson(request: JsonChatRequest): Promise<JsonChatReply>;
  chatTools(request: ToolChatRequest): Promise<ToolChatReply>;
}

// Anthropic's OpenAI-compatible endpoint ignores response_format; every other supported provider honours json_object.
const JSON_MODE: Readonly<Record<Provider, boolean>> = {
  openai: true,
  anthropic: false,
  google: true,
  mistral: true,
  deepseek: true,
  xai: true,
  openrouter: true,
};

function classify(provider: Provider, error: unknown): ProviderCallError {
  if (error instanceof ProviderCallError) return error;
  if (error instanceof ProviderResponseTooLarge)
    return new ProviderCallError(
      'too_large',
      `the ${provider} endpoint sent ${error.message} (response_too_large): ` +
        limitMessage('providerResponseBytes', 'bytes'),
    );
  if (error instanceof APIUserAbortError)
    return new ProviderCallError('transient', `the ${provider} call was cancelled`);
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderCallError('transient', `the ${provider} call timed out`);
  if (error instanceof APIConnectionError) {
    const egress = findEgressError(error.cause);
    if (egress instanceof EgressBlockedError)
      return new ProviderCallError('blocked', `the ${provider} endpoint is ${egress.message}`);
    return new ProviderCallError(
      'transient',
      `could not reach the ${provider} endpoint${egress ? ` (${egress.message})` : ''}`,
    );
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const described = `the ${provider} endpoint answered HTTP ${status}`;
    if (status === 401 || status === 403)
      return new ProviderCallError('auth', `${described}: check the ${provider} integration's API key`, status);
    if (status === 404)
      return new ProviderCallError('model_not_found', `${described}: the model or endpoint does not exist`, status);
    if (status >= 400 && status < 500 && ![408, 409, 429].includes(status))
      return new ProviderCallError('rejected', described, status);
    return new ProviderCallError('transient', described, status);
  }
  return new ProviderCallError(
    'transient',
    `the ${provider} call failed: ${(error as Error)?.name ?? 'unknown error'}`,
  );
}

/**
 * Opens a client on an OpenAI-compatible endpoint through the egress guard. The SDK retries 408, 409, 429 and 5xx
 * with exponential backoff, honouring `retry-after` / `retry-after-ms`; each attempt is bounded by `timeoutMs`, and
 * each answer by `LIMITS.providerResponseBytes` (the SDK reads an answer whole).
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // The guard's undici fetch speaks the same WHATWG fetch contract as the global one the SDK is typed against.
    fetch: cappedAnswers(options.fetch as unknown as FetchLike) as ClientOptions['fetch'],
    timeout: options.timeoutMs,
    maxRetries: options.maxRetries,
  });
  return {
    async chatJson(request) {
      try {
        const completion = await client.chat.completions.create(
          {
            model: request.model,
            messages: request.messages,
            temperature: 0,
            ...(JSON_MODE[options.provider] ? { response_format: { type: 'json_object' as const } } : {}),
          },
          { signal: request.signal },
        );
        return { content: completion.choices?.[0]?.message?.content ?? '', usage: usageOf(completion.usage) };
      } catch (error) {
        throw classify(options.provider, error);
      }
    },

    async chatTools(request) {
      const tools: ChatCompletionTool[] = request.tools.map((tool) => ({
        type: 'function',
        function: { name: tool.name, description: tool.description, parameters: tool.parameters },
      }));
      try {
        const completion = await client.chat.completions.create(
          {
            model: request.model,
            // AgentMessage mirrors the SDK's message params; the readonly array is only read.
            messages: request.messages as ChatCompletionMessageParam[],
            // Providers refuse an empty tools array: an agent without tools sends none.
            ...(tools.length > 0 ? { tools } : {}),
            ...(request.temperature !== null ? { temperature: request.temperature } : {}),
          },
          { signal: request.signal },
        );
        const message = completion.choices?.[0]?.message;
        const toolCalls = (message?.tool_calls ?? []).flatMap((call, index) =>
          call.type === 'function'
            ? [{ id: call.id || `call_${index}`, name: call.function.name, arguments: call.function.arguments ?? '' }]
            : [],
        );
        return { content: message?.content ?? null, toolCalls, usage: usageOf(completion.usage) };
      } catch (error) {
        throw classify(options.provider, error);
      }
    },
  };
}

function usageOf(
  usage: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number } | undefined,
): CallUsage {
  return {
    prompt_tokens: usage?.prompt_tokens ?? 0,
    completion_tokens: usage?.completion_tokens ?? 0,
    total_tokens: usage?.total_tokens ?? 0,
  };
}
