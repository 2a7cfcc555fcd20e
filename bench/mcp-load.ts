import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/**
 * One MCP endpoint the bench calls: its url, headers (the gateway's bearer token) and the name of the tool to call, or
 * null to send `ping` (answered by the endpoint itself: the cost of a request without the upstream hop).
 */
export interface McpPath {
  label: string;
  url: string;
  headers: Record<string, string>;
  tool: string | null;
}

/** Latencies (ms) and wall (ms) of a batch of calls. */
export interface Sample {
  latencies: number[];
  wallMs: number;
}

/** `n` MCP SDK client sessions on a path (each its own initialize and `Mcp-Session-Id`), opened in parallel. */
export async function openSessions(path: McpPath, n: number): Promise<Client[]> {
  return Promise.all(
    Array.from({ length: n }, async () => {
      const client = new Client({ name: 'assay-bench', version: '1.0.0' }, { capabilities: {} });
      const transport = new StreamableHTTPClientTransport(new URL(path.url), {
        requestInit: { headers: path.headers },
      });
      await client.connect(transport);
      return client;
    }),
  );
}

export const closeSessions = async (clients: Client[]): Promise<void> =>
  void (await Promise.all(clients.map((client) => client.close().catch(() => undefined))));

/**
 * `calls` tools/call of `path.tool` (or pings) spread over the sessions, each session one call at a time (so the concurrency is
 * the number of sessions); every result is checked (a wrong sum or an error fails the bench, not only slows it).
 */
export async function callMany(path: McpPath, clients: Client[], calls: number): Promise<Sample> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    clients.map(async (client) => {
      while (next < calls) {
        const i = next++;
        const t0 = performance.now();
        if (path.tool === null) {
          await client.ping();
          latencies.push(performance.now() - t0);
          continue;
        }
        const result = await client.callTool({ name: path.tool, arguments: { a: i, b: 1 } });
        latencies.push(performance.now() - t0);
        const text = (result.content as Array<{ text?: string }>).map((c) => c.text ?? '').join('');
        if (result.isError || !text.includes(String(i + 1)))
          throw new Error(`${path.label}: call ${i} answered ${JSON.stringify(result)}`);
      }
    }),
  );
  return { latencies, wallMs: performance.now() - started };
}

/** The `q` quantile (0..1) of sorted values, nearest rank. */
export const quantile = (sorted: number[], q: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];

/** Merges samples of one path: all latencies sorted, walls summed. */
export function merge(samples: Sample[]): Sample {
  const latencies = samples.flatMap((s) => s.latencies).sort((a, b) => a - b);
  return { latencies, wallMs: samples.reduce((sum, s) => sum + s.wallMs, 0) };
}
