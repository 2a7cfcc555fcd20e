import { toolMockSchema } from '../../domain/eval/tool-mocks';
import { z } from 'zod';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { ARGS_MATCH_MODES } from '../../domain/trajectory/arg-matchers';
import { caseTurns } from '../../domain/eval/case-turns';
import { TRAJECTORY_MATCH_MODES } from '../../domain/trajectory/trajectory-modes';

export const toolCallJson = z.object({
  tool_name: z.string(),
  tool_args: z.record(z.string(), z.unknown()),
  server: z.string().optional().describe('MCP tool: the server it belongs to; when given, a call must come from it'),
});

const expectedCallJson = toolCallJson.extend({ args_match: z.enum(ARGS_MATCH_MODES).optional() });

export const caseTurnJson = z.object({
  user_message: z.string(),
  expected_trajectory: z.array(expectedCallJson).nullish(),
  expected_tool_responses: z.array(z.object({ tool_name: z.string(), response: z.unknown() })).nullish(),
  expected_response: z.string().nullish(),
  rubrics: z.array(z.string()).nullish(),
});

export const evalCaseJson = z.object({
  id: z.string(),
  eval_set_id: z.string(),
  name: z.string(),
  session_input: z.record(z.string(), z.unknown()),
  expected_trajectory: z.array(expectedCallJson).nullable(),
  trajectory_match: z.enum(TRAJECTORY_MATCH_MODES),
  expected_final_response: z.string().nullable(),
  rubrics: z
    .array(z.string())
    .nullable()
    .describe("Case-level: judged against the whole conversation (a one-turn case's reply)"),
  turns: z
    .array(caseTurnJson)
    .describe('Every turn, in order (a one-turn case has one; the single-turn fields above mirror turn 0)'),
  state: z.record(z.string(), z.unknown()).nullable(),
  final_state: z.record(z.string(), z.unknown()).nullable(),
  conversation_scenario: z.record(z.string(), z.unknown()).nullable(),
  tool_mocks: z
    .array(toolMockSchema)
    .nullable()
    .describe("Live runs answer matching tool calls from these, before the set's"),
  tool_use_rubrics: z
    .array(z.string())
    .nullable()
    .describe('Rubrics about the tool calls, judged over the trajectory and its results (rubric_based_tool_use)'),
  source_run_id: z.string().nullable(),
  snapshot: z
    .object({
      tool_calls: z.array(toolCallJson.extend({ result: z.unknown().optional() })),
      final_response: z.string(),
    })
    .nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of an eval case; a promoted case references its conversation in `source_run_id`. */
export function toEvalCaseJson(row: EvalCase): z.infer<typeof evalCaseJson> {
  return {
    id: row.id,
    eval_set_id: row.eval_set_id,
    name: row.name,
    session_input: row.session_input,
    expected_trajectory: row.expected_trajectory,
    trajectory_match: row.trajectory_match,
    expected_final_response: row.expected_final_response,
    rubrics: row.rubrics,
    turns: caseTurns(row),
    state: row.state,
    final_state: row.final_state,
    conversation_scenario: row.conversation_scenario,
    tool_mocks: row.tool_mocks,
    tool_use_rubrics: row.tool_use_rubrics,
    source_run_id: row.source_run_id,
    snapshot: row.snapshot,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
