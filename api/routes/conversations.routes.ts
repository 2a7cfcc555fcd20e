import { z } from 'zod';
import { insertConversation, listConversations, type ConversationInput } from '../../db/conversation.repository';
import type { Conversation } from '../../db/tables/conversation.table';
import { boundedArray, boundedJson, boundedString } from '../../domain/bounded-schemas';
import { toolCallSchema } from '../../domain/trajectory/tool-call';
import { requireConversation } from '../eval-lookups';
import { sessionInputSchema } from '../../domain/eval/eval-fields';
import { requireAgent } from '../lookups';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';

/** What `POST /runs/import` takes: one conversation recorded elsewhere (the batch import takes a list of these). */
export const conversationImportBody = z
  .object({
    session_input: sessionInputSchema,
    messages: boundedArray(
      z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: boundedString('responseChars') }),
      'messagesPerConversation',
    ).optional(),
    tool_calls: boundedArray(
      toolCallSchema.extend({ result: boundedJson('toolResultBytes').optional() }),
      'toolCallsPerConversation',
    ).default([]),
    final_response: boundedString('responseChars'),
    guardrail_events: boundedArray(
      z.object({
        guardrail: z.string().min(1).max(100),
        stage: z.string().max(100).nullish(),
        detail: z.unknown().optional(),
      }),
      'guardrailEventsPerConversation',
    ).default([]),
    model: z.string().trim().min(1).max(200).optional(),
    token_usage: z.record(z.string(), z.number().nonnegative()).optional(),
  })
  .strict();

/** The stored form of an imported conversation (a transcript of the message and reply unless `messages` is given). */
export function importedConversation(body: z.infer<typeof conversationImportBody>): ConversationInput {
  return {
    session_input: body.session_input,
    messages: body.messages ?? [
      { role: 'user', content: body.session_input.message },
      { role: 'assistant', content: body.final_response },
    ],
    tool_calls: body.tool_calls,
    final_response: body.final_response,
    guardrail_events: body.guardrail_events,
    model: body.model ?? null,
    token_usage: body.token_usage ?? null,
    source: 'imported',
  };
}

/** The API shape of a conversation, as every `/runs` endpoint answers it. */
export const conversationJson = z.object({
  id: z.string(),
  agent_id: z.string(),
  source: z.string(),
  session_input: z.record(z.string(), z.unknown()),
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.string(),
      tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
      tool_call_id: z.string().optional(),
    }),
  ),
  // Runs of the agent runtime also say per call whether it failed and whether it was simulated or replayed (sandbox).
  tool_calls: z.array(
    z.object({
      tool_name: z.string().describe('an MCP tool: its name as GET /api/v1/mcp-servers/{id}/tools lists it'),
      tool_args: z.record(z.string(), z.unknown()),
      server: z.string().optional().describe('an MCP tool call: the name of its server'),
      result: z.unknown().optional(),
      error: z.string().optional(),
      simulated: z.boolean().optional(),
      replayed: z.boolean().optional(),
      call_key: z.string().optional(),
    }),
  ),
  final_response: z.string(),
  guardrail_events: z.array(
    z.object({ guardrail: z.string(), stage: z.string().nullish(), detail: z.unknown().optional() }),
  ),
  model: z.string().nullable(),
  token_usage: z.record(z.string(), z.number()).nullable(),
  latency_ms: z.number().nullable(),
  agent_version: z.number().nullable(),
  stop_reason: z.string().nullable(),
  created_at: z.string(),
});

/** The API shape of a conversation (the spec's run of an agent). */
export function toConversationJson(row: Conversation): z.infer<typeof conversationJson> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    source: row.source,
    session_input: row.session_input,
    messages: row.messages,
    tool_calls: row.tool_calls,
    final_response: row.final_response,
    guardrail_events: row.guardrail_events,
    model: row.model,
    token_usage: row.token_usage,
    latency_ms: row.latency_ms,
    agent_version: row.agent_version,
    stop_reason: row.stop_reason,
    created_at: row.created_at.toISOString(),
  };
}

/** Conversations of an agent (`/runs`): import one recorded elsewhere, list, get. */
export const conversationRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/runs/import',
    resource: 'runs',
    summary: 'Record a conversation produced elsewhere',
    tag: 'evaluation',
    permission: 'evals:manage',
    body: conversationImportBody,
    status: 201,
    response: z.object({ data: conversationJson }),
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const row = await insertConversation(deps.db, agent, importedConversation(body));
      return { data: toConversationJson(row) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/runs',
    summary: "List an agent's conversations, newest first",
    tag: 'evaluation',
    permission: 'evals:view',
    query: pageQuery,
    response: dataPageJson(conversationJson),
    handler: async ({ params, query, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      return dataPage(query, (page) => listConversations(deps.db, agent.id, page), toConversationJson);
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/runs/:run',
    summary: 'Get a conversation',
    tag: 'evaluation',
    permission: 'evals:view',
    response: z.object({ data: conversationJson }),
    handler: async ({ params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      return { data: toConversationJson(await requireConversation(deps.db, agent, params.run)) };
    },
  }),
];
