import { z } from 'zod';
import { findAgent, findPublishedVersion } from '../../db/agent.repository';
import { insertEvalRun } from '../../db/eval-run.repository';
import {
  approveTool,
  listApprovalTargets,
  listCandidateRuns,
  type ApprovalTarget,
} from '../../db/mcp-tool-approval.repository';
import { countRunCases, runCaseScope } from '../../db/run-cases.repository';
import type { McpServer, McpTool } from '../../db/tables/mcp.table';
import { LIMITS } from '../../domain/limits';
import { resolveMinScores } from '../../domain/scoring/criteria';
import type { AppDeps } from '../app-deps';
import { agentRunnability } from '../../domain/agent/agent-runnability';
import { requirePermission } from '../auth';
import { HttpError } from '../http-error';
import { evalRunJson } from '../json/eval-run.json';
import { limitExceeded } from '../field-errors';
import { toolJson, toolViewJson, toToolJson, toToolViewJson } from '../json/mcp-tool.json';
import { requireMcpServer, requireServerTool } from '../lookups';
import { route, type RouteSpec } from '../route';
import { startEvalRun } from '../workflow-starts';

const MAX_RUNS = LIMITS.approvalEvaluationRuns;

// The tag an approval evaluation puts on its runs: the candidate definition's hash, so a later definition lists its own.
const candidateTag = (tool: McpTool): string => `tool-candidate:${tool.hash.slice(0, 16)}`;

async function requireTool(
  deps: AppDeps,
  workspaceId: string,
  params: Record<string, string>,
): Promise<{ server: McpServer; tool: McpTool }> {
  const server = await requireMcpServer(deps.db, workspaceId, params.id);
  return { server, tool: await requireServerTool(deps.db, server.id, params.tool) };
}

const approveBody = z
  .object({
    hash: z
      .string()
      .max(64)
      .optional()
      .describe('the definition hash the approver reviewed (from GET …/tools/{tool}); 409 when a sync moved it since'),
  })
  .strict();

// Runs the set live with the candidate; an agent that cannot run live (unpublished) is skipped.
async function startCandidateRun(deps: AppDeps, tool: McpTool, target: ApprovalTarget): Promise<string[]> {
  const agent = await findAgent(deps.db, target.workspace_id, target.agent_id);
  if (!agent || !agentRunnability(await findPublishedVersion(deps.db, agent)).runnable) return [];
  const run = await insertEvalRun(deps.db, target, {
    mode: 'live',
    run_selection: 'source',
    conversations: null,
    min_scores: resolveMinScores(target.min_scores, undefined),
    judge_samples: target.judge_samples,
    tags: [candidateTag(tool)],
    candidate_tool_id: tool.id,
  });
  const cases = await countRunCases(deps.db, runCaseScope(run));
  await startEvalRun(deps, run, { agent: target.agent_name, set: target.name, cases });
  return [run.id];
}

/** Tool approval: a tool's pending diff and evaluations, approve with evaluation, and approve (a person's decision). */
export const mcpToolApprovalRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/v1/mcp-servers/:id/tools/:tool',
    summary: 'A stored tool with its status, the diff of its definition against the approved one, and its evaluations',
    tag: 'mcp',
    permission: 'mcp:view',
    response: toolViewJson,
    handler: async ({ params, auth, deps }) => {
      const { tool } = await requireTool(deps, auth.workspaceId, params);
      return toToolViewJson(tool, await listCandidateRuns(deps.db, tool.id, candidateTag(tool), MAX_RUNS));
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/tools/:tool/approve',
    summary:
      'Approve a tool at its current definition (idempotent); it becomes usable by flows, agent runs, the gateway',
    errors: [409],
    tag: 'mcp',
    permission: 'mcp:manage',
    body: approveBody,
    response: toolJson,
    handler: async ({ params, body, auth, deps }) => {
      const { tool } = await requireTool(deps, auth.workspaceId, params);
      if (body.hash !== undefined && body.hash !== tool.hash)
        throw new HttpError(409, 'conflict', 'the tool definition changed since it was reviewed: review it again', {
          field: 'hash',
          current_hash: tool.hash,
        });
      const approved = await approveTool(deps.db, tool, tool.hash);
      if (!approved) throw new HttpError(409, 'conflict', 'a sync changed the tool definition: review it again');
      return toToolJson(approved);
    },
  }),
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/tools/:tool/approval-evaluations',
    summary:
      'Evaluate a quarantined tool before approving it: every eval set of each linked agent runs live in the sandbox ' +
      `with the candidate definition (at most ${MAX_RUNS} runs, limit approvalEvaluationRuns; unpublished agents skipped)`,
    errors: [409, 422, 503],
    tag: 'mcp',
    permission: 'mcp:manage',
    status: 201,
    response: z.object({ tag: z.string(), runs: z.array(evalRunJson.pick({ id: true })) }),
    handler: async ({ params, auth, deps }) => {
      requirePermission(auth, 'evals:manage');
      const { server, tool } = await requireTool(deps, auth.workspaceId, params);
      if (tool.status === 'approved') throw new HttpError(409, 'conflict', 'the tool is approved: nothing to evaluate');
      const targets = await listApprovalTargets(deps.db, server.id, MAX_RUNS + 1);
      if (targets.length > MAX_RUNS)
        throw limitExceeded(
          '(linked eval sets)',
          'approvalEvaluationRuns',
          'items',
          'one run per eval set of each linked agent',
        );
      const runs: string[] = [];
      for (const target of targets) runs.push(...(await startCandidateRun(deps, tool, target)));
      if (runs.length === 0)
        throw new HttpError(409, 'conflict', 'no published agent linked to this server has an eval set to run');
      return { tag: candidateTag(tool), runs: runs.map((id) => ({ id })) };
    },
  }),
];
