import { z } from 'zod';
import {
  deleteEvalCase,
  insertEvalCaseWithinLimit,
  listEvalCases,
  updateEvalCase,
  type EvalCaseInput,
} from '../../db/eval-case.repository';
import type { Db } from '../../db/database';
import { findEvalSet } from '../../db/eval-set.repository';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { caseFieldsOf, evalCaseBody } from '../../domain/eval/eval-fields';
import { caseFromConversation, promoteBody, updateCaseBody, updatedCase } from '../eval-case-input';
import { LIMITS } from '../../domain/limits';
import { requireAgentEvalCase, requireAgentEvalSet, requireConversation } from '../eval-lookups';
import { invalidField, limitExceeded } from '../field-errors';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { evalCaseJson, toEvalCaseJson } from '../json/eval-case.json';

const caseResponse = z.object({ data: evalCaseJson });

// A full set answers 422 naming the field that chose it; nothing is written.
async function insertIntoSet(db: Db, setId: string, input: EvalCaseInput, field: string): Promise<EvalCase> {
  const outcome = await insertEvalCaseWithinLimit(db, setId, input, LIMITS.casesPerEvalSet);
  if ('full' in outcome)
    throw limitExceeded(field, 'casesPerEvalSet', 'items', `the eval set already holds ${outcome.full} cases`);
  return outcome.inserted;
}

/** Eval cases: hand-written create, list, get, update, delete, and promotion of a conversation to a case. */
export const evalCaseRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/runs/:run/promote-to-case',
    resource: 'cases',
    summary: 'Create a case from a conversation',
    tag: 'evaluation',
    permission: 'evals:create_case',
    body: promoteBody,
    status: 201,
    response: caseResponse,
    handler: async ({ body, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const conversation = await requireConversation(deps.db, agent, params.run);
      const set = await findEvalSet(deps.db, agent.id, body.eval_set_id);
      if (!set) throw invalidField('eval_set_id', 'no such eval set for this agent');
      // A conversation imported before the limits existed may hold more calls than a trajectory may.
      if (conversation.tool_calls.length > LIMITS.toolCallsPerExpectedTrajectory)
        throw limitExceeded(
          'run',
          'toolCallsPerExpectedTrajectory',
          'items',
          `the conversation has ${conversation.tool_calls.length} tool calls, too many for an expected trajectory`,
        );
      const input = caseFromConversation(conversation, body);
      return { data: toEvalCaseJson(await insertIntoSet(deps.db, set.id, input, 'eval_set_id')) };
    },
  }),
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases',
    summary: 'Write a case by hand',
    tag: 'evaluation',
    permission: 'evals:manage',
    body: evalCaseBody,
    status: 201,
    response: caseResponse,
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const input = { ...caseFieldsOf(body), source_run_id: null, snapshot: null };
      return { data: toEvalCaseJson(await insertIntoSet(deps.db, set.id, input, 'set')) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases',
    summary: "List a set's cases",
    tag: 'evaluation',
    permission: 'evals:view',
    query: pageQuery,
    response: dataPageJson(evalCaseJson),
    handler: async ({ params, query, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      return dataPage(query, (page) => listEvalCases(deps.db, set.id, page), toEvalCaseJson);
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases/:case',
    summary: 'Get a case',
    tag: 'evaluation',
    permission: 'evals:view',
    response: caseResponse,
    handler: async ({ params, auth, deps }) => {
      return { data: toEvalCaseJson(await requireAgentEvalCase(deps.db, auth.workspaceId, params)) };
    },
  }),
  route({
    method: 'patch',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases/:case',
    summary: 'Update a case (null clears an optional field)',
    tag: 'evaluation',
    permission: 'evals:manage',
    body: updateCaseBody,
    response: caseResponse,
    handler: async ({ body, params, auth, deps }) => {
      const current = await requireAgentEvalCase(deps.db, auth.workspaceId, params);
      const row = await updateEvalCase(deps.db, current.id, updatedCase(current, body));
      return { data: toEvalCaseJson(row) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases/:case',
    summary: 'Delete a case',
    tag: 'evaluation',
    permission: 'evals:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      await deleteEvalCase(deps.db, (await requireAgentEvalCase(deps.db, auth.workspaceId, params)).id);
      return undefined;
    },
  }),
];
