/** An error answered by the Assay API: HTTP status (0: the API was not reached), error code and details (the fields it
 * names). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/** A minimal JSON client for the Assay HTTP API. */
export interface ApiClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
  patch<T>(path: string, body: unknown): Promise<T>;
  /** Answers the body, `{}` for a 204. */
  delete<T>(path: string): Promise<T>;
  /** Posts a body already serialised (a file as read), with its content type. */
  postText<T>(path: string, text: string, contentType: string): Promise<T>;
}

/** How the client calls the API beyond its URL and token. */
export interface ApiClientOptions {
  /** Sent as `X-Workspace-Id` (default: the token's workspace). */
  workspace?: string;
  /** Tries of a GET that meets a transient failure (a network error, a timeout, 502/503/504), or of any request
   * refused 429 (it did nothing); default 5. */
  attempts?: number;
  /** Wait before the second try, doubled before each later one; default 250 ms (250, 500, 1000, 2000). */
  backoffMs?: number;
  /** Longest wait for one answer before it counts as a network failure; default 60 s. */
  requestTimeoutMs?: number;
  /** Told of each retry; default: a line on stderr. */
  onRetry?: (message: string) => void;
}

const TRANSIENT_STATUSES = new Set([502, 503, 504]);
/** The longest `Retry-After` a 429 is waited out for: a CI job should fail rather than hang. */
const MAX_RETRY_AFTER_MS = 120_000;

// A 429's Retry-After in ms (delay-seconds, or an HTTP date), undefined when absent or unreadable.
function retryAfterMs(res: Response): number | undefined {
  const value = res.headers.get('retry-after')?.trim() ?? '';
  const ms = /^\d+$/.test(value) ? Number(value) * 1000 : Date.parse(value) - Date.now();
  return Number.isFinite(ms) ? Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS) : undefined;
}

// What fetch rejected with, with the system error (ECONNREFUSED, ECONNRESET, …) undici keeps as its cause.
function networkMessage(error: unknown): string {
  const err = error as Error & { cause?: { code?: string; message?: string } };
  if (err.name === 'TimeoutError') return 'no answer in time';
  return err.cause?.code ?? err.cause?.message ?? err.message;
}

/**
 * Creates a client for `baseUrl` authenticating with `token`. A GET is retried with exponential backoff on a network
 * error, a timeout or a 502/503/504 (polling survives an api restart or a proxy hiccup); other methods are tried once,
 * since they change something. Any request refused 429 (the rate limit refuses before doing anything) is tried again
 * after the answer's `Retry-After`. A failure that outlasts the tries is an `ApiError` saying how many were made.
 */
export function createApiClient(baseUrl: string, token: string, options: ApiClientOptions = {}): ApiClient {
  const attempts = options.attempts ?? 5;
  const backoffMs = options.backoffMs ?? 250;
  const onRetry = options.onRetry ?? ((message: string) => process.stderr.write(`${message}\n`));
  const headers = (body?: { type: string }): Record<string, string> => ({
    Authorization: `Bearer ${token}`,
    ...(options.workspace ? { 'X-Workspace-Id': options.workspace } : {}),
    ...(body ? { 'Content-Type': body.type } : {}),
  });
  type Body = { text: string; type: string };

  // One try: the answer, or a failure to retry (`retry`, after `afterMs` when the api said), or an ApiError to throw.
  type Outcome<T> = { value: T } | { retry: ApiError; afterMs?: number };
  const once = async <T>(method: string, path: string, body?: Body): Promise<Outcome<T>> => {
    let res: Response;
    try {
      res = await fetch(new URL(path, baseUrl), {
        method,
        headers: headers(body),
        body: body?.text,
        signal: AbortSignal.timeout(options.requestTimeoutMs ?? 60_000),
      });
    } catch (error) {
      return { retry: new ApiError(0, 'unreachable', `cannot reach ${baseUrl}: ${networkMessage(error)}`) };
    }
    const json = (await res.json().catch(() => ({}))) as {
      error?: { code?: string; message?: string; details?: unknown };
    };
    if (res.ok) return { value: json as T };
    const failure = new ApiError(
      res.status,
      json.error?.code ?? 'http_error',
      json.error?.message ?? `HTTP ${res.status} ${res.statusText}`.trim(),
      json.error?.details,
    );
    if (res.status === 429) return { retry: failure, afterMs: retryAfterMs(res) ?? backoffMs };
    if (TRANSIENT_STATUSES.has(res.status)) return { retry: failure };
    throw failure;
  };

  const call = async <T>(method: string, path: string, body?: Body): Promise<T> => {
    for (let attempt = 1; ; attempt++) {
      const outcome = await once<T>(method, path, body);
      if ('value' in outcome) return outcome.value;
      const { retry, afterMs } = outcome;
      const tries = method === 'GET' || afterMs !== undefined ? attempts : 1;
      if (attempt >= tries) {
        const after = tries > 1 ? ` (gave up after ${tries} tries)` : '';
        throw new ApiError(retry.status, retry.code, `${method} ${path}: ${retry.message}${after}`, retry.details);
      }
      const waitMs = afterMs ?? backoffMs * 2 ** (attempt - 1);
      onRetry(`${method} ${path}: ${retry.message}; try ${attempt + 1} of ${tries} in ${waitMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  };
  return {
    get: (path) => call('GET', path),
    post: (path, body) => call('POST', path, { text: JSON.stringify(body), type: 'application/json' }),
    patch: (path, body) => call('PATCH', path, { text: JSON.stringify(body), type: 'application/json' }),
    delete: (path) => call('DELETE', path),
    postText: (path, text, type) => call('POST', path, { text, type }),
  };
}

/** The options every API-calling command takes (`--url`, `--token`, `--workspace`). */
export interface ApiCommandOptions {
  url?: string;
  token?: string;
  /** Sent as X-Workspace-Id. */
  workspace?: string;
}

/** The API's base URL of a command: `--url`, then ASSAY_URL, then the local default. */
export function apiUrlFor(options: ApiCommandOptions): string {
  return options.url ?? (process.env.ASSAY_URL || 'http://127.0.0.1:3000');
}

/** The client of an API-calling command: flags first, then ASSAY_URL / ASSAY_TOKEN / ASSAY_WORKSPACE. */
export function apiClientFor(options: ApiCommandOptions): ApiClient {
  const token = options.token ?? process.env.ASSAY_TOKEN;
  if (!token) throw new Error('ASSAY_TOKEN (or --token) is required');
  return createApiClient(apiUrlFor(options), token, {
    workspace: options.workspace ?? (process.env.ASSAY_WORKSPACE || undefined),
  });
}
