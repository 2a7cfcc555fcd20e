import { z } from 'zod';
import type { EvalCaseInput } from '../db/eval-case.repository';
import type { Conversation } from '../db/tables/conversation.table';
import type { EvalCase } from '../db/tables/eval-set.table';
import {
  blankToNull,
  caseShapeProblems,
  evalCaseFields,
  evalName,
  turnsSessionInputSchema,
} from '../domain/eval/eval-fields';
import { firstTurnColumns } from '../domain/eval/case-turns';
import { conversationTurns } from '../domain/eval/conversation-turns';

/** What `PATCH …/cases/{case}` takes: any field of a case (null clears an optional one). */
export const updateCaseBody = z
  .object({ name: evalName.optional(), session_input: turnsSessionInputSchema.optional(), ...evalCaseFields })
  .strict()
  .superRefine((body, ctx) => {
    for (const { path, message } of caseShapeProblems(body, false)) ctx.addIssue({ code: 'custom', path, message });
  });

/** What `POST …/runs/{run}/promote-to-case` takes. */
export const promoteBody = z
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
export function caseFromConversation(
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
export function updatedCase(current: EvalCase, body: z.infer<typeof updateCaseBody>): EvalCaseInput {
  const { name, session_input, trajectory_match, expected_trajectory, expected_final_response, ...rest } = body;
  const common = {
    name: name ?? current.name,
    trajectory_match: trajectory_match ?? current.trajectory_match,
    rubrics: rest.rubrics === undefined ? current.rubrics : rest.rubrics,
    state: rest.state === undefined ? current.state : rest.state,
    final_state: rest.final_state === undefined ? current.final_state : rest.final_state,
    conversation_scenario:
      rest.conversation_scenario === undefined ? current.conversation_scenario : rest.conversation_scenario,
    tool_mocks: rest.tool_mocks === undefined ? current.tool_mocks : rest.tool_mocks,
    tool_use_rubrics: rest.tool_use_rubrics === undefined ? current.tool_use_rubrics : rest.tool_use_rubrics,
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
