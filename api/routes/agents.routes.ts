import { z } from 'zod';
import { deleteAgent, insertAgent, listAgents, publishAgent, updateAgent } from '../../db/agent.repository';
import { isUniqueViolation } from '../../db/pg-errors';
import { agentSettingsBody } from '../../domain/agent/agent-settings';
import { boundedString } from '../../domain/bounded-schemas';
import { HttpError } from '../http-error';
import { requireAgent } from '../lookups';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { agentJson, toAgentJson } from '../json/agent.json';

const agentName = z
  .string()
  .trim()
  .min(1)
  .max(120)
  .regex(/^[^/\s][^/]*$/, 'must not contain a slash');

const createAgentBody = z.object({
  name: agentName,
  model: z.string().trim().min(1).max(200),
  instructions: boundedString('textChars'),
  settings: agentSettingsBody.optional(),
  gateway_capture: z
    .enum(['metadata', 'full'])
    .optional()
    .describe("what the MCP gateway records of each call: 'metadata' (default) or 'full' (arguments and results too)"),
});

const updateAgentBody = createAgentBody.partial();

const nameTaken = (name: string): HttpError =>
  new HttpError(409, 'conflict', `an agent named ${name} already exists`, { field: 'name' });

/** Agents: create, list, get, update, delete and publish. */
export const agentRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents',
    summary: 'Create an agent',
    errors: [409],
    tag: 'agents',
    permission: 'agents:manage',
    body: createAgentBody,
    status: 201,
    response: z.object({ data: agentJson }),
    handler: async ({ body, auth, deps }) => {
      const row = await insertAgent(deps.db, auth.workspaceId, body).catch((error: unknown) => {
        throw isUniqueViolation(error) ? nameTaken(body.name) : error;
      });
      return { data: toAgentJson(row) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents',
    summary: 'List agents',
    tag: 'agents',
    permission: 'agents:view',
    query: pageQuery,
    response: dataPageJson(agentJson),
    handler: async ({ query, auth, deps }) =>
      dataPage(query, (page) => listAgents(deps.db, auth.workspaceId, page), toAgentJson),
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent',
    summary: 'Get an agent by id or name',
    tag: 'agents',
    permission: 'agents:view',
    response: z.object({ data: agentJson }),
    handler: async ({ params, auth, deps }) => ({
      data: toAgentJson(await requireAgent(deps.db, auth.workspaceId, params.agent)),
    }),
  }),
  route({
    method: 'patch',
    path: '/api/ai-agents/:agent',
    summary: 'Update an agent',
    errors: [409],
    tag: 'agents',
    permission: 'agents:manage',
    body: updateAgentBody,
    response: z.object({ data: agentJson }),
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const row = await updateAgent(deps.db, agent.id, body).catch((error: unknown) => {
        throw isUniqueViolation(error) ? nameTaken(body.name ?? '') : error;
      });
      return { data: toAgentJson(row) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/ai-agents/:agent',
    summary: 'Delete an agent',
    tag: 'agents',
    permission: 'agents:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      await deleteAgent(deps.db, (await requireAgent(deps.db, auth.workspaceId, params.agent)).id);
      return undefined;
    },
  }),
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/publish',
    resource: 'ai-agents',
    summary: 'Publish the current version of an agent',
    tag: 'agents',
    permission: 'agents:manage',
    response: z.object({
      data: z.object({ agent_id: z.string(), version: z.number(), model: z.string(), published_at: z.string() }),
    }),
    handler: async ({ params, auth, deps }) => {
      const version = await publishAgent(deps.db, (await requireAgent(deps.db, auth.workspaceId, params.agent)).id);
      return {
        data: {
          agent_id: version.agent_id,
          version: version.version,
          model: version.model,
          published_at: version.published_at.toISOString(),
        },
      };
    },
  }),
];
