import request from 'supertest';
import { saveToolSync } from '../../db/mcp-tool.repository';
import type { TestPlatform } from './platform';
import type { Tenant } from './tenants';

/** Real ids by the path segment before them (`ai-agents` → an agent id), and known-good bodies by operation. */
export interface FuzzFixtures {
  fixtures: Map<string, string>;
  examples: Map<string, unknown[]>;
}

type Api = () => request.Agent;

/** An MCP server with one stored tool `echo(text)` (as a sync stores it) and a flow calling it. */
export async function createEchoFlow(
  platform: TestPlatform,
  api: Api,
  name: string,
): Promise<{ server: { id: string }; flow: { id: string }; node: Record<string, unknown> }> {
  const server = (
    await api()
      .post('/api/v1/mcp-servers')
      .send({ name, transport: 'http', config: { url: `https://mcp.${name}.test/mcp` } })
      .expect(201)
  ).body;
  const parameters = [{ name: 'text', type: 'string', description: '', required: true }];
  const inputSchema = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] };
  const definition = { name: 'echo', description: 'echo', inputSchema };
  const tool = { ...definition, parameters, definition, hash: 'h' };
  await saveToolSync(platform.runtime.db, server.id, [tool], new Date());
  const node = { id: 'n1', kind: 'mcp.call_tool', mcp_server_id: server.id, tool_name: 'echo' };
  const flow = (
    await api()
      .post('/api/v1/flows')
      .send({ name, nodes: [{ ...node, parameters: { text: '{{ variables.input }}' } }] })
      .expect(201)
  ).body;
  return { server, flow, node };
}

/** One of everything a path can name, through the API, for the fuzz suite to aim real ids at. */
export async function createFuzzFixtures(platform: TestPlatform, tenant: Tenant): Promise<FuzzFixtures> {
  const api: Api = () => request.agent(platform.app).set(tenant.auth);
  const agent = (
    await api().post('/api/ai-agents').send({ name: 'fuzz-agent', model: 'gpt-4o', instructions: 'x' }).expect(201)
  ).body.data;
  const base = `/api/ai-agents/${agent.id}`;
  const set = (await api().post(`${base}/eval-sets`).send({ name: 'fuzz-set' }).expect(201)).body.data;
  const message = { session_input: { message: 'hi' } };
  const evalCase = (
    await api()
      .post(`${base}/eval-sets/${set.id}/cases`)
      .send({ name: 'c', ...message })
      .expect(201)
  ).body.data;
  const conversation = (
    await api()
      .post(`${base}/runs/import`)
      .send({ ...message, final_response: 'hello' })
      .expect(201)
  ).body.data;
  const evalRun = (await api().post(`${base}/eval-sets/${set.id}/run`).send({}).expect(201)).body.data;
  const { server, flow, node } = await createEchoFlow(platform, api, 'fuzz-flow');
  const flowRun = (
    await api()
      .post(`/api/v1/flows/${flow.id}/runs`)
      .send({ variables: { input: 'x' } })
      .expect(201)
  ).body;
  await api()
    .put('/api/workspaces/current/integrations/openai')
    .send({ api_key: 'sk-fuzz-0123456789abcdef' })
    .expect(200);
  await api().post(`/api/v1/agents/${agent.id}/mcp-servers`).send({ mcp_server_id: server.id }).expect(200);
  const fixtures = new Map<string, string>(
    Object.entries({
      'ai-agents': agent.id,
      agents: agent.id,
      'eval-sets': set.id,
      cases: evalCase.id,
      runs: conversation.id,
      'eval-runs': evalRun.id,
      'mcp-servers': server.id,
      flows: flow.id,
      'flow-runs': flowRun.id,
      integrations: 'openai',
    }),
  );
  const headers = { Authorization: 'Bearer $SECRET_VALUE' };
  const payload = { metadata: { encoding: Buffer.from('json/plain').toString('base64') }, data: 'e30=' };
  const examples = new Map<string, unknown[]>(
    Object.entries({
      'POST /api/v1/mcp-servers': [
        { name: 'fuzz-m', transport: 'http', config: { url: 'https://mcp.fuzz.test/m', headers }, secret_value: 's' },
      ],
      'PATCH /api/v1/mcp-servers/{id}': [{ config: { url: 'https://mcp.fuzz.test/m', headers }, secret_value: 's' }],
      'POST /api/v1/mcp-catalog': [
        { name: 'fuzz-entry', label: 'Fuzz', image: 'https://img.fuzz.test/a.png', transport: 'http' },
      ],
      'POST /api/v1/flows': [{ name: 'fuzz-flow-2', nodes: [{ ...node, parameters: { text: 'x' } }] }],
      'POST /api/v1/flows/{id}/runs': [{ variables: { input: 'x' } }],
      'POST /api/v1/agents/{agent_id}/mcp-servers': [{ mcp_server_id: server.id, enabled: true }],
      'POST /api/ai-agents/{agent}/eval-sets/{set}/run': [
        { mode: 'offline' },
        { run_selection: 'explicit', conversations: { [evalCase.id]: conversation.id }, judge_samples: 3 },
      ],
      'POST /api/ai-agents/{agent}/runs/{run}/promote-to-case': [{ eval_set_id: set.id, name: 'promoted' }],
      'POST /api/ai-agents/{agent}/runs': [{ message: 'hi', session_input: { locale: 'en' } }],
      'PUT /api/workspaces/current/eval-judge-model': [{ judge_model: 'gpt-4o' }, { judge_model: '' }],
      'POST /codec/encode': [{ payloads: [payload] }],
    }),
  );
  return { fixtures, examples };
}

/** Ends the workflows a workspace left running (runs started without a worker), rather than leave them behind. */
export async function stopWorkspaceWorkflows(platform: TestPlatform, workspaceId: string): Promise<void> {
  const client = platform.runtime.temporal.client;
  const query = `WorkspaceId = "${workspaceId}" AND ExecutionStatus = "Running"`;
  for await (const execution of client.workflow.list({ query })) {
    await client.workflow
      .getHandle(execution.workflowId)
      .terminate('test done')
      .catch(() => undefined);
  }
}
