import type { evalApi } from './eval-api';

type Api = ReturnType<typeof evalApi>;

/** Creates an agent with `settings` and publishes it; answers the agent. */
export async function publishedAgent(
  api: Api,
  name: string,
  model: string,
  settings: Record<string, unknown> = {},
): Promise<any> {
  const agent = (
    await api.send('post', '/api/ai-agents', 201, { name, model, instructions: `You are ${name}.`, settings })
  ).data;
  await api.send('post', `/api/ai-agents/${name}/publish`, 200);
  return agent;
}

/** Registers a custom http MCP server at `url`, syncs its tools and links it to the agent; answers the server id. */
export async function linkMcpServer(
  api: Api,
  agentId: string,
  name: string,
  url: string,
  link: Record<string, unknown> = {},
): Promise<string> {
  const server = await api.send('post', '/api/v1/mcp-servers', 201, { name, transport: 'http', config: { url } });
  await api.send('post', `/api/v1/mcp-servers/${server.id}/refresh-tools`, 200);
  await api.send('post', `/api/v1/agents/${agentId}/mcp-servers`, 200, {
    mcp_server_id: server.id,
    enabled: true,
    ...link,
  });
  return server.id;
}

/** Runs the published agent on a message in production; answers the recorded conversation. */
export async function runAgent(api: Api, agent: string, message: string, status = 201): Promise<any> {
  const body = await api.send('post', `/api/ai-agents/${agent}/runs`, status, { message });
  return status === 201 ? body.data : body;
}

/** The calls of a conversation as name and arguments only (the trajectory). */
export const trajectoryOf = (conversation: {
  tool_calls: Array<{ tool_name: string; tool_args: unknown }>;
}): Array<{ tool_name: string; tool_args: unknown }> =>
  conversation.tool_calls.map(({ tool_name, tool_args }) => ({ tool_name, tool_args }));

/** How many tool messages a scripted request carries (which step of the run it is). */
export const toolMessages = (messages: Array<{ role: string }>): number =>
  messages.filter((m) => m.role === 'tool').length;

/** The first user message of a scripted request. */
export const userMessage = (messages: Array<{ role: string; content: string | null }>): string =>
  messages.find((m) => m.role === 'user')?.content ?? '';

/** `n` distinct tool calls (`lookup` with `{ i, ...extra }`), for trajectories at and over their limits. */
export const lookupCalls = (
  n: number,
  extra: object = {},
): Array<{ tool_name: string; tool_args: Record<string, unknown> }> =>
  Array.from({ length: n }, (_, i) => ({ tool_name: 'lookup', tool_args: { i, ...extra } }));
