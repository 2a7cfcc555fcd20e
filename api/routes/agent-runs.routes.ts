import { z } from 'zod';
import { findPublishedVersion } from '../../db/agent.repository';
import { findConversation } from '../../db/conversation.repository';
import { findIntegration } from '../../db/integration.repository';
import { agentRunnability } from '../../domain/agent/agent-runnability';
import { boundedObject } from '../../domain/bounded-schemas';
import { providerNotConnectedMessage } from '../../domain/eval/run-failures';
import { agentNotRunnable } from '../agent-run-errors';
import { nonBlank } from '../../domain/eval/eval-fields';
import { HttpError } from '../http-error';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { runAgent } from '../workflow-starts';
import { conversationJson, toConversationJson } from '../json/conversation.json';

const runBody = z
  .object({
    message: nonBlank,
    session_input: boundedObject('sessionInputBytes').optional(),
  })
  .strict();

/**
 * Production runs of an agent: its published version answers a message with real tool effects (MCP calls, CRM,
 * messaging). The request waits for the run's workflow and answers the recorded conversation (201), which can then
 * be promoted to an eval case. The run keeps going on the worker if the client disconnects.
 */
export const agentRunRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/runs',
    summary: 'Run the published agent on a message (real effects); answers the conversation',
    errors: [409, 502, 503, 504],
    tag: 'agents',
    permission: 'agents:manage',
    body: runBody,
    status: 201,
    response: z.object({ data: conversationJson }),
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const verdict = agentRunnability(await findPublishedVersion(deps.db, agent));
      if (!verdict.runnable) throw agentNotRunnable(verdict);
      const { provider, version } = verdict;
      if (!(await findIntegration(deps.db, auth.workspaceId, provider))) {
        throw new HttpError(
          409,
          'provider_not_connected',
          providerNotConnectedMessage(provider, version.model, 'agent'),
          { provider },
        );
      }
      const result = await runAgent(deps, {
        workspaceId: auth.workspaceId,
        agentId: agent.id,
        sessionInput: { ...body.session_input, message: body.message },
      });
      const conversation = await findConversation(deps.db, agent.id, result.conversationId);
      if (!conversation) throw new HttpError(502, 'agent_run_failed', 'the run finished but its conversation is gone');
      return { data: toConversationJson(conversation) };
    },
  }),
];
