import { z } from 'zod';
import { deleteEvalSet, insertEvalSet, listEvalSets, updateEvalSet } from '../../db/eval-set.repository';
import { isUniqueViolation } from '../../db/pg-errors';
import type { EvalSet } from '../../db/tables/eval-set.table';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { evalName, evalSetFields } from '../../domain/eval/eval-fields';
import { HttpError } from '../http-error';
import { requireAgentEvalSet } from '../eval-lookups';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';

const createSetBody = z.object({ name: evalName, ...evalSetFields }).strict();
const updateSetBody = z.object({ name: evalName.optional(), ...evalSetFields }).strict();

const minScoresJson = z.object({
  tool_trajectory_avg_score: z.number(),
  final_response_match: z.number(),
  rubric_based: z.number(),
});
const evalSetJson = z.object({
  id: z.string(),
  agent_id: z.string(),
  name: z.string(),
  description: z.string(),
  min_scores: minScoresJson,
  judge_samples: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of an eval set; `min_scores` is complete (the spec's defaults fill what was not given). */
export function toEvalSetJson(row: EvalSet): z.infer<typeof evalSetJson> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    name: row.name,
    description: row.description,
    min_scores: resolveMinScores(row.min_scores),
    judge_samples: row.judge_samples,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

const nameTaken = (name: string): HttpError =>
  new HttpError(409, 'conflict', `an eval set named ${name} already exists for this agent`, { field: 'name' });
const orNameTaken =
  (name: string) =>
  (error: unknown): never => {
    throw isUniqueViolation(error) ? nameTaken(name) : error;
  };

/** Eval sets of an agent: create, list, get, update, delete (by id or name). */
export const evalSetRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets',
    summary: 'Create an eval set',
    errors: [409],
    tag: 'evaluation',
    permission: 'evals:manage',
    body: createSetBody,
    status: 201,
    response: z.object({ data: evalSetJson }),
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const row = await insertEvalSet(deps.db, agent, {
        name: body.name,
        description: body.description ?? '',
        min_scores: resolveMinScores(body.min_scores),
        judge_samples: body.judge_samples ?? 1,
      }).catch(orNameTaken(body.name));
      return { data: toEvalSetJson(row) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets',
    summary: "List an agent's eval sets",
    tag: 'evaluation',
    permission: 'evals:view',
    query: pageQuery,
    response: dataPageJson(evalSetJson),
    handler: async ({ params, query, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      return dataPage(query, (page) => listEvalSets(deps.db, agent.id, page), toEvalSetJson);
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set',
    summary: 'Get an eval set by id or name',
    tag: 'evaluation',
    permission: 'evals:view',
    response: z.object({ data: evalSetJson }),
    handler: async ({ params, auth, deps }) => {
      return { data: toEvalSetJson(await requireAgentEvalSet(deps.db, auth.workspaceId, params)) };
    },
  }),
  route({
    method: 'patch',
    path: '/api/ai-agents/:agent/eval-sets/:set',
    summary: 'Update an eval set (min_scores merge into the current ones)',
    errors: [409],
    tag: 'evaluation',
    permission: 'evals:manage',
    body: updateSetBody,
    response: z.object({ data: evalSetJson }),
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const row = await updateEvalSet(deps.db, set.id, {
        name: body.name ?? set.name,
        description: body.description ?? set.description,
        min_scores: resolveMinScores(set.min_scores, body.min_scores),
        judge_samples: body.judge_samples ?? set.judge_samples,
      }).catch(orNameTaken(body.name ?? set.name));
      return { data: toEvalSetJson(row) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/ai-agents/:agent/eval-sets/:set',
    summary: 'Delete an eval set with its cases and runs',
    tag: 'evaluation',
    permission: 'evals:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      await deleteEvalSet(deps.db, (await requireAgentEvalSet(deps.db, auth.workspaceId, params)).id);
      return undefined;
    },
  }),
];
