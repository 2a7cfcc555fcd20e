import http from 'node:http';
import type net from 'node:net';

/** A request the proxy saw, with the status it was answered. */
export interface ProxiedRequest {
  method: string;
  path: string;
  status: number;
  workspace?: string;
}

/** How the proxy departs from forwarding. */
export interface ProxyOptions {
  /** Answers a request itself (true) instead of forwarding it. */
  intercept?: (req: http.IncomingMessage, res: http.ServerResponse) => boolean;
  /** Awaited once, when the first request arrives, before it is forwarded. */
  beforeFirst?: () => Promise<void>;
  /** Headers set on every forwarded request (e.g. `Authorization` for a client that sends none). */
  headers?: Record<string, string>;
}

/** A loopback proxy in front of the api at `target` that forwards every request (streaming both ways) and records each one. */
export async function forwardingProxy(target: string, options: ProxyOptions = {}) {
  const upstream = new URL(target);
  const seen: ProxiedRequest[] = [];
  let first: Promise<void> | undefined;
  const server = http.createServer((req, res) => {
    const workspace = req.headers['x-workspace-id'] as string | undefined;
    const entry: ProxiedRequest = { method: req.method ?? '', path: req.url ?? '', status: 0, workspace };
    seen.push(entry);
    if (options.intercept?.(req, res)) {
      entry.status = res.statusCode;
      return;
    }
    void (first ??= options.beforeFirst?.() ?? Promise.resolve()).then(() => {
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, ...options.headers },
        },
        (answer) => {
          entry.status = answer.statusCode ?? 0;
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      req.pipe(forward);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
