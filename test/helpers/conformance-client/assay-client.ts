/** The driver's view of Assay: its real HTTP API, reached with a base URL and a bearer token. */
export interface AssayClient {
  /** Sends one request; an answer other than `expect` throws with the status and body. */
  call<T = Record<string, unknown>>(method: string, path: string, body?: unknown, expect?: number): Promise<T>;
}

/** Reads `ASSAY_CONFORMANCE_API` (base URL) and `ASSAY_CONFORMANCE_TOKEN` (a workspace token) from the environment. */
export function assayClientFromEnv(env: NodeJS.ProcessEnv = process.env): AssayClient {
  const base = env.ASSAY_CONFORMANCE_API;
  const token = env.ASSAY_CONFORMANCE_TOKEN;
  if (!base || !token) throw new Error('ASSAY_CONFORMANCE_API and ASSAY_CONFORMANCE_TOKEN must be set');
  return {
    async call<T>(method: string, path: string, body?: unknown, expect = 200): Promise<T> {
      const res = await fetch(new URL(path, base), {
        method,
        headers: {
          Authorization: `Bearer ${token}`,
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (res.status !== expect) throw new Error(`${method} ${path}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : {}) as T;
    },
  };
}
