import crypto from 'node:crypto';
import type { AssayClient } from './assay-client';

interface ToolParameter {
  name: string;
  type: string;
  required: boolean;
}
interface ToolJson {
  name: string;
  parameters: ToolParameter[];
}
interface FlowRunJson {
  id: string;
  status: string;
  error?: string | null;
  nodes: Array<{ status: string; error: string | null; output: unknown }>;
}

const log = (line: string): void => void process.stderr.write(`[assay-conformance] ${line}\n`);

/** Registers the suite's server as an http MCP server of the workspace; `extra` adds fields (auth, secrets). */
export async function registerServer(api: AssayClient, url: string, extra: object = {}): Promise<string> {
  const name = `conformance-${crypto.randomBytes(6).toString('hex')}`;
  const created = await api.call<{ id: string }>(
    'POST',
    '/api/v1/mcp-servers',
    { name, transport: 'http', config: { url }, ...extra },
    201,
  );
  log(`registered ${name} (${created.id}) for ${url}`);
  return created.id;
}

/** `test` then `refresh-tools`; either failing throws. Answers the stored tools. */
export async function testAndSync(api: AssayClient, serverId: string): Promise<ToolJson[]> {
  const tested = await api.call<{ status: string; message?: string }>('POST', `/api/v1/mcp-servers/${serverId}/test`);
  if (tested.status !== 'connected') throw new Error(`test: ${tested.message ?? tested.status}`);
  const synced = await api.call<{ tools_count: number }>('POST', `/api/v1/mcp-servers/${serverId}/refresh-tools`);
  log(`connected; ${synced.tools_count} tools synced`);
  return api.call<ToolJson[]>('GET', `/api/v1/mcp-servers/${serverId}/tools?limit=100`);
}

// A value of the parameter's type for every required parameter (the flow renders and coerces them).
const SAMPLES: Record<string, string> = { number: '2', integer: '2', boolean: 'true', string: 'conformance' };
const sampleArguments = (tool: ToolJson): Record<string, string> =>
  Object.fromEntries(tool.parameters.filter((p) => p.required).map((p) => [p.name, SAMPLES[p.type] ?? '']));

async function waitForRunEnd(api: AssayClient, runId: string, timeoutMs: number): Promise<FlowRunJson> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const run = await api.call<FlowRunJson>('GET', `/api/v1/flow-runs/${runId}`);
    if (['completed', 'failed', 'cancelled'].includes(run.status)) return run;
    if (Date.now() > deadline) throw new Error(`flow run ${runId} still ${run.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Calls one tool through a one-node flow (`mcp.call_tool`), runs it and waits; answers the finished run. */
export async function callThroughFlow(
  api: AssayClient,
  serverId: string,
  tool: ToolJson,
  timeoutMs = 60_000,
): Promise<FlowRunJson> {
  const node = { id: 'call', kind: 'mcp.call_tool', mcp_server_id: serverId, tool_name: tool.name };
  const flow = await api.call<{ id: string }>(
    'POST',
    '/api/v1/flows',
    {
      // Unique: a call retried after a step-up authorization makes its flow again.
      name: `conformance ${tool.name}`.slice(0, 100) + ` ${crypto.randomBytes(4).toString('hex')}`,
      nodes: [{ ...node, parameters: sampleArguments(tool) }],
    },
    201,
  );
  const started = await api.call<{ id: string }>('POST', `/api/v1/flows/${flow.id}/runs`, { variables: {} }, 201);
  const run = await waitForRunEnd(api, started.id, timeoutMs);
  log(`flow run of ${tool.name}: ${run.status} ${JSON.stringify(run.nodes)}`);
  return run;
}

/** The whole path a scenario's server sees: register, test, refresh-tools, then every tool through a flow. */
export async function registerAndCallEveryTool(api: AssayClient, url: string, extra: object = {}): Promise<void> {
  const serverId = await registerServer(api, url, extra);
  const tools = await testAndSync(api, serverId);
  for (const tool of tools) {
    const run = await callThroughFlow(api, serverId, tool);
    if (run.status !== 'completed')
      throw new Error(`flow run of ${tool.name} ended ${run.status}: ${run.error ?? run.nodes[0]?.error ?? ''}`);
  }
}
