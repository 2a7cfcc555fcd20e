import { z } from 'zod';

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

const userData = z.record(z.string(), z.unknown());
const functionCall = adkObject({ id: z.string().nullish(), name: z.string(), args: userData.nullish() });
const functionResponse = adkObject({ id: z.string().nullish(), name: z.string().nullish(), response: z.unknown() });
const part = adkObject({
  text: z.string().nullish(),
  function_call: functionCall.nullish(),
  function_response: functionResponse.nullish(),
});
const content = adkObject({ role: z.string().nullish(), parts: z.array(part).nullish() });
const rubric = adkObject({
  rubric_id: z.string().nullish(),
  rubric_content: adkObject({ text_property: z.string().nullish() }).nullish(),
});
const intermediateData = adkObject({
  tool_uses: z.array(functionCall).nullish(),
  tool_responses: z.array(functionResponse).nullish(),
  invocation_events: z.array(adkObject({ content: content.nullish() })).nullish(),
});

/** One ADK invocation (a turn): the user's content, the expected final response, tool calls and rubrics. */
export const adkInvocation = adkObject({
  user_content: content,
  final_response: content.nullish(),
  intermediate_data: intermediateData.nullish(),
  rubrics: z.array(rubric).nullish(),
});

/** One ADK eval case: a static `conversation` or a `conversation_scenario`, its session and rubrics. */
export const adkCase = adkObject({
  eval_id: z.string(),
  conversation: z.array(z.unknown()).nullish(),
  conversation_scenario: adkObject({}).nullish(),
  session_input: adkObject({
    app_name: z.string().nullish(),
    user_id: z.string().nullish(),
    state: userData.nullish(),
  }).nullish(),
  final_session_state: userData.nullish(),
  rubrics: z.array(rubric).nullish(),
});

/** The outside of an ADK `EvalSet` (`*.evalset.json`, and `*.test.json` in the current schema). */
export const adkEvalSetSchema = adkObject({
  eval_set_id: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  eval_cases: z.array(z.unknown()),
});

export type AdkContent = z.infer<typeof content>;
export type AdkInvocation = z.infer<typeof adkInvocation>;
export type AdkRubric = z.infer<typeof rubric>;
export type AdkFunctionCall = z.infer<typeof functionCall>;
export type AdkFunctionResponse = z.infer<typeof functionResponse>;
