import http from 'node:http';
import type net from 'node:net';

/** An HTTP proxy on loopback in front of a server, counting every request and the JSON-RPC methods it carried. */
export interface CountingProxy {
  /** The proxied URL (same path as the target's). */
  url: string;
  requests(): number;
  /** JSON-RPC methods seen, in order (`initialize`, `tools/list`, `tools/call`…). */
  methods(): string[];
  /** The headers of every request, in order (to prove which credentials reached this listener). */
  headers(): http.IncomingHttpHeaders[];
  /** The HTTP method of every request, in the order of `headers()` (a DELETE ends an MCP session). */
  httpMethods(): string[];
  close(): Promise<void>;
}

function rpcMethods(body: string): string[] {
  try {
    const parsed: unknown = JSON.parse(body);
    const messages = Array.isArray(parsed) ? parsed : [parsed];
    return messages.map((m) => (m as { method?: unknown })?.method).filter((m): m is string => typeof m === 'string');
  } catch {
    return [];
  }
}

/** Forwards every request on a free loopback port to `target` (an http URL), streaming both ways. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const upstream = new URL(target);
  let count = 0;
  const methods: string[] = [];
  const seen: http.IncomingHttpHeaders[] = [];
  const httpMethods: string[] = [];
  const server = http.createServer((req, res) => {
    count++;
    seen.push({ ...req.headers });
    httpMethods.push(req.method ?? '');
    const chunks: Buffer[] = [];
    const forward = http.request(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, host: upstream.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', () => res.destroy());
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => methods.push(...rpcMethods(Buffer.concat(chunks).toString('utf8'))));
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${upstream.pathname}`,
    requests: () => count,
    methods: () => [...methods],
    headers: () => [...seen],
    httpMethods: () => [...httpMethods],
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
