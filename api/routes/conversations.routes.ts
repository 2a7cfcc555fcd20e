import { z } from 'zod';
import { insertConversation, listConversations } from '../../db/conversation.repository';
import type { ConversationSource } from '../../db/tables/conversation.table';
import { requireConversation } from '../eval-lookups';
import { requireAgent } from '../lookups';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { conversationJson, toConversationJson } from '../json/conversation.json';
import { conversationImportBody, importedConversation } from '../conversation-input';

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
    query: pageQuery.extend({
      source: z
        .enum(['imported', 'live', 'sandbox', 'gateway'])
        .optional()
        .meta({ description: 'Only the conversations of this source (gateway: recorded MCP gateway sessions).' }),
    }),
    response: dataPageJson(conversationJson),
    handler: async ({ params, query, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const source = query.source as ConversationSource | undefined;
      return dataPage(query, (page) => listConversations(deps.db, agent.id, page, source), toConversationJson);
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
