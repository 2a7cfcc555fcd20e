import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, type ClientOptions } from 'openai';
import type { JudgeMessage } from '../../domain/judge-prompts';
import type { Provider } from '../../domain/model-provider';
import { EgressBlockedError, findEgressError } from '../egress/egress-errors';
import type { EgressGuard } from '../egress/egress-guard';

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

/** Why a provider call failed after the client's own retries, for callers to decide what retrying can fix. */
export type ProviderFailureKind = 'auth' | 'model_not_found' | 'rejected' | 'blocked' | 'transient';

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
}

// Anthropic's OpenAI-compatible endpoint ignores response_format; every other supported provider honours json_object.
const JSON_MODE: Readonly<Record<Provider, boolean>> = {
  openai: true, anthropic: false, google: true, mistral: true, deepseek: true, xai: true, openrouter: true,
};

function classify(provider: Provider, error: unknown): ProviderCallError {
  if (error instanceof ProviderCallError) return error;
  if (error instanceof APIUserAbortError) return new ProviderCallError('transient', `the ${provider} call was cancelled`);
  if (error instanceof APIConnectionTimeoutError) return new ProviderCallError('transient', `the ${provider} call timed out`);
  if (error instanceof APIConnectionError) {
    const egress = findEgressError(error.cause);
    if (egress instanceof EgressBlockedError) return new ProviderCallError('blocked', `the ${provider} endpoint is ${egress.message}`);
    return new ProviderCallError('transient', `could not reach the ${provider} endpoint${egress ? ` (${egress.message})` : ''}`);
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const status = error.status;
    const described = `the ${provider} endpoint answered HTTP ${status}`;
    if (status === 401 || status === 403) return new ProviderCallError('auth', `${described}: check the ${provider} integration's API key`, status);
    if (status === 404) return new ProviderCallError('model_not_found', `${described}: the model or endpoint does not exist`, status);
    if (status >= 400 && status < 500 && ![408, 409, 429].includes(status)) return new ProviderCallError('rejected', described, status);
    return new ProviderCallError('transient', described, status);
  }
  return new ProviderCallError('transient', `the ${provider} call failed: ${(error as Error)?.name ?? 'unknown error'}`);
}

/**
 * Opens a client on an OpenAI-compatible endpoint through the egress guard. The SDK retries 408, 409, 429 and 5xx
 * with exponential backoff, honouring `retry-after` / `retry-after-ms`; each attempt is bounded by `timeoutMs`.
 */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const client = new OpenAI({
    apiKey: options.apiKey,
    baseURL: options.baseUrl,
    // The guard's undici fetch speaks the same WHATWG fetch contract as the global one the SDK is typed against.
    fetch: options.fetch as unknown as ClientOptions['fetch'],
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
        const usage = completion.usage;
        return {
          content: completion.choices?.[0]?.message?.content ?? '',
          usage: { prompt_tokens: usage?.prompt_tokens ?? 0, completion_tokens: usage?.completion_tokens ?? 0, total_tokens: usage?.total_tokens ?? 0 },
        };
      } catch (error) {
        throw classify(options.provider, error);
      }
    },
  };
}
