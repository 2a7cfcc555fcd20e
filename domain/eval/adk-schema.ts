import { z } from 'zod';
import { content, functionCall, functionResponse, part } from './adk-genai';
import { pyDict, pyFloat, pydanticModel } from './adk-pydantic';

/** Google ADK reads camelCase and snake_case keys alike (a pydantic alias generator with `populate_by_name`). */
export const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

/** An ADK model object read in either casing. */
// Only the keys of the ADK model itself are renamed: tool `args`, responses and session state are user data.
export const adkObject = <S extends z.ZodRawShape>(shape: S) =>
  z.preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), item]))
        : value,
    z.looseObject(shape),
  );

const nullable = <T extends z.ZodType>(schema: T) => schema.nullish();

// ADK's own models (`EvalBaseModel`): camelCase aliases, unknown keys refused unless the model says otherwise.
const rubric = pydanticModel({
  rubric_id: z.string(),
  rubric_content: pydanticModel({ text_property: z.string().nullish() }),
  description: z.string().nullish(),
  type: z.string().nullish(),
});
const intermediateData = pydanticModel({
  tool_uses: z.array(functionCall).optional(),
  tool_responses: z.array(functionResponse).optional(),
  intermediate_responses: z.array(z.tuple([z.string(), z.array(part)])).optional(),
});
// ADK 2.x ignores an event's unknown keys (the `adk web` editor writes its own indices there).
const invocationEvent = pydanticModel(
  {
    author: z.string(),
    content: nullable(content),
    grounding_metadata: pyDict.nullish(),
    usage_metadata: pyDict.nullish(),
    model_version: z.string().nullish(),
  },
  'ignore',
);
const invocationEvents = pydanticModel({ invocation_events: z.array(invocationEvent).optional() });
const appDetails = pydanticModel({ agent_details: z.record(z.string(), pyDict).optional() });

/** One ADK invocation (a turn): the user's content, the expected final response, tool calls and rubrics. */
export const adkInvocation = pydanticModel({
  invocation_id: z.string().optional(),
  user_content: content,
  final_response: nullable(content),
  intermediate_data: z.union([intermediateData, invocationEvents]).nullish(),
  creation_timestamp: pyFloat.optional(),
  rubrics: z.array(rubric).nullish(),
  app_details: nullable(appDetails),
  duration: pyFloat.nullish(),
  model_duration: pyFloat.nullish(),
  tool_duration: pyFloat.nullish(),
});

const conversationScenario = pydanticModel({
  starting_prompt: z.string(),
  conversation_plan: z.string(),
  user_persona: z.union([z.string(), pyDict]).nullish(),
});
// ADK 2.x keeps the unknown keys of a case and of its session input (`extra="allow"`).
const sessionInput = pydanticModel(
  { app_name: z.string(), user_id: z.string(), session_id: z.string().nullish(), state: pyDict.optional() },
  'allow',
);

/** One ADK eval case: a static `conversation` or a `conversation_scenario`, its session and rubrics. */
export const adkCase = pydanticModel(
  {
    eval_id: z.string(),
    // Each invocation is read on its own, so a bad one is named by its place.
    conversation: z.array(z.unknown()).nullish(),
    conversation_scenario: nullable(conversationScenario),
    session_input: nullable(sessionInput),
    creation_timestamp: pyFloat.optional(),
    rubrics: z.array(rubric).nullish(),
    final_session_state: pyDict.nullish(),
  },
  'allow',
);

/**
 * The outside of an ADK `EvalSet` (`*.evalset.json`, and `*.test.json` in the current schema). ADK's outer model
 * has no aliases; Assay also reads its keys in camelCase (trpc-agent-go writes them so) and says so in its notes.
 */
export const adkEvalSetSchema = adkObject({
  eval_set_id: z.string(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  eval_cases: z.array(z.unknown()),
  creation_timestamp: pyFloat.optional(),
});

export type { AdkContent, AdkFunctionCall, AdkFunctionResponse } from './adk-genai';
export type AdkInvocation = z.infer<typeof adkInvocation>;
export type AdkRubric = z.infer<typeof rubric>;
