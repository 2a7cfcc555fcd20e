import { z } from 'zod';
import { CASE_EXTRAS, evalCaseBody, evalName, evalSetFields } from './eval-fields';
import { LIMITS } from '../limits';
import type { MinScores } from '../scoring/criteria';
import type { SimulatorSettings } from './simulator-settings';
import { DEFAULT_TRAJECTORY_MATCH } from '../trajectory/trajectory-modes';
import { DEFAULT_MOCK_POLICY, type MockPolicy, type ToolMock } from './tool-mocks';

/** The `format` tag of an Assay eval set file. */
export const EVAL_SET_FILE_FORMAT = 'assay.eval-set/v1';

/** One case of an eval set file: every field of an eval case a builder writes (no ids, no timestamps). */
export const evalSetFileCase = evalCaseBody;

/** An Assay eval set file: the set's settings and its cases, as `GET …/export` writes and `…/cases/import` reads. */
export const evalSetFileSchema = z
  .object({
    $schema: z.string().max(2_000).optional(),
    format: z.literal(EVAL_SET_FILE_FORMAT),
    name: evalName,
    ...evalSetFields,
    cases: z.array(evalSetFileCase).max(LIMITS.casesPerEvalSet),
  })
  .strict()
  .meta({ title: 'Assay eval set file', description: 'An eval set with its cases; see the README, "Eval set files"' });

/** A parsed eval set file. */
export type EvalSetFile = z.infer<typeof evalSetFileSchema>;

/** The fields of one case as a file holds them. */
export type EvalSetFileCase = z.infer<typeof evalSetFileCase>;

/** The JSON Schema (draft 2020-12) of an eval set file, served at `/schemas/eval-set.json`. */
export function evalSetFileJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(evalSetFileSchema, {
    target: 'draft-2020-12',
    io: 'input',
    // The rule between a case's fields (caseShapeProblems) as JSON Schema can say it: a case gives `turns`, a
    // `conversation_scenario`, or a `session_input` with its `message`.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema !== evalSetFileCase) return;
      jsonSchema.anyOf = [
        { required: ['turns'] },
        { required: ['conversation_scenario'] },
        { required: ['session_input'], properties: { session_input: { required: ['message'] } } },
      ];
    },
  });
}

// A one-turn case is written as before; a case of turns keeps its expectations in them. Absent extras stay absent.
function fileCase(c: EvalSetFileCase): EvalSetFileCase {
  const extras = Object.fromEntries(CASE_EXTRAS.flatMap((key) => (c[key] ? [[key, c[key]]] : [])));
  const common = {
    name: c.name,
    session_input: c.session_input,
    trajectory_match: c.trajectory_match ?? DEFAULT_TRAJECTORY_MATCH,
  };
  if (c.turns) return { ...common, turns: c.turns, rubrics: c.rubrics ?? null, ...extras };
  return {
    ...common,
    expected_trajectory: c.expected_trajectory ?? null,
    expected_final_response: c.expected_final_response ?? null,
    rubrics: c.rubrics ?? null,
    ...extras,
  };
}

/** A set's sandbox tool settings (absent: none, `replay`, off). */
interface SetToolSettings {
  tool_mocks?: ToolMock[] | null;
  mock_policy?: MockPolicy;
  simulate_tool_responses?: boolean;
}

// A set's tool settings are written only when not the defaults, so a set without them exports as before.
function fileToolSettings(set: SetToolSettings): SetToolSettings {
  return {
    ...(set.tool_mocks ? { tool_mocks: set.tool_mocks } : {}),
    ...(set.mock_policy && set.mock_policy !== DEFAULT_MOCK_POLICY ? { mock_policy: set.mock_policy } : {}),
    ...(set.simulate_tool_responses ? { simulate_tool_responses: true } : {}),
  };
}

/** The file of a set and its cases, cases in name order (ids and timestamps are left out). */
export function toEvalSetFile(
  set: {
    name: string;
    description: string;
    min_scores: MinScores;
    judge_samples: number;
    simulator?: SimulatorSettings | null;
  } & SetToolSettings,
  cases: ReadonlyArray<EvalSetFileCase>,
): EvalSetFile {
  return {
    format: EVAL_SET_FILE_FORMAT,
    name: set.name,
    description: set.description,
    min_scores: set.min_scores,
    judge_samples: set.judge_samples,
    ...(set.simulator ? { simulator: set.simulator } : {}),
    ...fileToolSettings(set),
    cases: [...cases].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map(fileCase),
  };
}
