import { z } from 'zod';
import type { EvalSet } from '../../db/tables/eval-set.table';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { MOCK_POLICIES, toolMockSchema } from '../../domain/eval/tool-mocks';
import { resolveSimulatorSettings } from '../../domain/eval/simulator-settings';

export const minScoresJson = z.object({
  tool_trajectory_avg_score: z.number(),
  final_response_match: z.number(),
  rubric_based: z.number(),
  response_match_score: z.number().optional().describe('ADK ROUGE-1: applied only when set (no default)'),
  task_success: z.number().optional().describe('Scenario cases only; 0.7 when not set'),
  persona_adherence: z.number().optional().describe('Scenario cases only: gates the case only when set'),
});

export const evalSetJson = z.object({
  id: z.string(),
  agent_id: z.string(),
  name: z.string(),
  description: z.string(),
  min_scores: minScoresJson,
  judge_samples: z.number(),
  tool_mocks: z.array(toolMockSchema).nullable().describe("Every case's tool mocks after its own"),
  mock_policy: z
    .enum(MOCK_POLICIES)
    .describe('a live tool call no mock matches: error, replay (else simulate), simulate'),
  simulate_tool_responses: z
    .boolean()
    .describe('a model writes the response of a call neither a mock nor the cassette answers'),
  simulator: z
    .object({ model: z.string().optional(), max_turns: z.number(), stop_signal: z.string() })
    .describe("how a simulated user plays the scenario cases; model absent: the judge provider's cheaper model"),
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
    tool_mocks: row.tool_mocks,
    mock_policy: row.mock_policy,
    simulate_tool_responses: row.simulate_tool_responses,
    simulator: resolveSimulatorSettings(row.simulator),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
