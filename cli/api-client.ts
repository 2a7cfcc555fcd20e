/** An error answered by the Assay API, with its HTTP status and error code. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** A minimal JSON client for the Assay HTTP API. */
export interface ApiClient {
  get<T>(path: string): Promise<T>;
  post<T>(path: string, body: unknown): Promise<T>;
}

/** Creates a client for `baseUrl` authenticating with `token`. */
export function createApiClient(baseUrl: string, token: string): ApiClient {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await fetch(new URL(path, baseUrl), {
      method,
      headers: {
        Authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    }).catch((error: unknown) => {
      throw new ApiError(0, 'unreachable', `cannot reach ${baseUrl}: ${(error as Error).message}`);
    });
    const json = (await res.json().catch(() => ({}))) as { error?: { code?: string; message?: string } };
    if (!res.ok)
      throw new ApiError(res.status, json.error?.code ?? 'http_error', json.error?.message ?? `HTTP ${res.status}`);
    return json as T;
  };
  return { get: (path) => call('GET', path), post: (path, body) => call('POST', path, body) };
}
