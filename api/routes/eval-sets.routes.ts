import { z } from 'zod';
import { deleteEvalSet, insertEvalSet, listEvalSets, updateEvalSet } from '../../db/eval-set.repository';
import { isUniqueViolation } from '../../db/pg-errors';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { evalName, evalSetFields } from '../../domain/eval/eval-fields';
import { HttpError } from '../http-error';
import { requireAgentEvalSet } from '../eval-lookups';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { evalSetJson, toEvalSetJson } from '../json/eval-set.json';

const createSetBody = z.object({ name: evalName, ...evalSetFields }).strict();

const updateSetBody = z.object({ name: evalName.optional(), ...evalSetFields }).strict();

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
        simulator: body.simulator ?? null,
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
        simulator: body.simulator,
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
