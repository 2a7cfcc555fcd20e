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
import type { Conversation } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import {
  blankToNull,
  caseFieldsOf,
  caseShapeProblems,
  evalCaseBody,
  evalCaseFields,
  evalName,
  turnsSessionInputSchema,
} from '../../domain/eval/eval-fields';
import { firstTurnColumns } from '../../domain/eval/case-turns';
import { conversationTurns } from '../../domain/eval/conversation-turns';
import { LIMITS } from '../../domain/limits';
import { requireAgentEvalCase, requireAgentEvalSet, requireConversation } from '../eval-lookups';
import { invalidField, limitExceeded } from '../field-errors';
import { requireAgent } from '../lookups';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { evalCaseJson, toEvalCaseJson } from '../json/eval-case.json';

const updateCaseBody = z
  .object({ name: evalName.optional(), session_input: turnsSessionInputSchema.optional(), ...evalCaseFields })
  .strict()
  .superRefine((body, ctx) => {
    for (const { path, message } of caseShapeProblems(body, false)) ctx.addIssue({ code: 'custom', path, message });
  });

const promoteBody = z
  .object({
    eval_set_id: z.string().min(1).max(200),
    name: evalName.optional(),
    trajectory_match: evalCaseFields.trajectory_match,
  })
  .strict();

const expectedCalls = (calls: Conversation['tool_calls']) =>
  calls.map(({ tool_name, tool_args, server }) =>
    server === undefined ? { tool_name, tool_args } : { tool_name, tool_args, server },
  );

/**
 * The case a conversation promotes to: each of its turns' message, calls and reply as a turn's expectations (a
 * one-turn conversation makes a one-turn case), with a snapshot of its calls and final reply.
 */
function caseFromConversation(
  conversation: Conversation,
  { name, trajectory_match }: z.infer<typeof promoteBody>,
): EvalCaseInput {
  const turns = conversationTurns(conversation);
  const message = turns[0].user_message;
  const common = {
    name: name ?? (message.trim().slice(0, 80) || `run ${conversation.id}`),
    trajectory_match,
    rubrics: null,
    source_run_id: conversation.id,
    snapshot: { tool_calls: conversation.tool_calls, final_response: conversation.final_response },
  };
  if (!conversation.turns)
    return {
      ...common,
      session_input: { ...conversation.session_input, message },
      expected_trajectory: expectedCalls(conversation.tool_calls),
      expected_final_response: blankToNull(conversation.final_response),
    };
  const caseTurns = turns.map((turn) => ({
    user_message: turn.user_message,
    expected_trajectory: expectedCalls(turn.tool_calls),
    expected_response: blankToNull(turn.final_response),
  }));
  return { ...common, ...firstTurnColumns(caseTurns, conversation.session_input), turns: caseTurns };
}

/** A case's fields after an update: the body's over the case's; a single-turn field given updates turn 0. */
function updatedCase(current: EvalCase, body: z.infer<typeof updateCaseBody>): EvalCaseInput {
  const { name, session_input, trajectory_match, expected_trajectory, expected_final_response, ...rest } = body;
  const common = {
    name: name ?? current.name,
    trajectory_match: trajectory_match ?? current.trajectory_match,
    rubrics: rest.rubrics === undefined ? current.rubrics : rest.rubrics,
    state: rest.state === undefined ? current.state : rest.state,
    final_state: rest.final_state === undefined ? current.final_state : rest.final_state,
    conversation_scenario:
      rest.conversation_scenario === undefined ? current.conversation_scenario : rest.conversation_scenario,
    source_run_id: current.source_run_id,
    snapshot: current.snapshot,
  };
  const sessionInput = session_input
    ? { ...session_input, message: session_input.message ?? current.session_input.message }
    : current.session_input;
  const turns = rest.turns === undefined ? current.turns : rest.turns;
  if (!turns)
    return {
      ...common,
      session_input: sessionInput,
      expected_trajectory: expected_trajectory === undefined ? current.expected_trajectory : expected_trajectory,
      expected_final_response:
        expected_final_response === undefined ? current.expected_final_response : blankToNull(expected_final_response),
      turns: null,
    };
  const first = { ...turns[0], user_message: session_input?.message ?? turns[0].user_message };
  if (expected_trajectory !== undefined) first.expected_trajectory = expected_trajectory;
  if (expected_final_response !== undefined) first.expected_response = blankToNull(expected_final_response);
  const next = [first, ...turns.slice(1)];
  return { ...common, ...firstTurnColumns(next, sessionInput), turns: next };
}

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
