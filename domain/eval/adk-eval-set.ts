import { z } from 'zod';
import { issuesAt, type FieldProblem } from '../field-problems';

/** Google ADK reads camelCase and snake_case keys alike (a pydantic alias generator with `populate_by_name`). */
const snakeCase = (key: string): string => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

// Only the keys of the ADK model itself are renamed: tool `args` and session state are user data and stay as given.
const adkObject = <S extends z.ZodRawShape>(shape: S) =>
  z.preprocess(
    (value) =>
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), item]))
        : value,
    z.looseObject(shape),
  );

const functionCall = adkObject({
  name: z.string(),
  args: z.record(z.string(), z.unknown()).nullish(),
});
const part = adkObject({ text: z.string().nullish(), function_call: functionCall.nullish() });
const content = adkObject({ parts: z.array(part).nullish() });
const rubric = adkObject({ rubric_content: adkObject({ text_property: z.string().nullish() }).nullish() });
const intermediateData = adkObject({
  tool_uses: z.array(functionCall).nullish(),
  invocation_events: z.array(adkObject({ content: content.nullish() })).nullish(),
});
const invocation = adkObject({
  user_content: content,
  final_response: content.nullish(),
  intermediate_data: intermediateData.nullish(),
  rubrics: z.array(rubric).nullish(),
});
const adkCase = adkObject({
  eval_id: z.string(),
  conversation: z.array(invocation).nullish(),
  rubrics: z.array(rubric).nullish(),
});

/** The outside of an ADK `EvalSet` (`*.evalset.json`, and `*.test.json` in the current schema). */
export const adkEvalSetSchema = adkObject({
  eval_set_id: z.string().nullish(),
  name: z.string().nullish(),
  description: z.string().nullish(),
  eval_cases: z.array(z.unknown()),
});

/** Whether a parsed JSON document is an ADK eval set (it has `eval_cases` or `evalCases`). */
export function isAdkEvalSet(value: unknown): boolean {
  return value !== null && typeof value === 'object' && ('eval_cases' in value || 'evalCases' in value);
}

/** The set an ADK file names: its `name`, else its `eval_set_id`. */
export function adkSetName(value: z.infer<typeof adkEvalSetSchema>): string | undefined {
  return value.name ?? value.eval_set_id ?? undefined;
}

type AdkContent = z.infer<typeof content>;
type AdkInvocation = z.infer<typeof invocation>;

const textOf = (value: AdkContent | null | undefined): string | null => {
  const texts = (value?.parts ?? []).flatMap((p) => (typeof p.text === 'string' ? [p.text] : []));
  return texts.length ? texts.join('\n') : null;
};

// `tool_uses` in the classic shape; the newer `invocation_events` carry the calls as function-call parts.
function trajectoryOf(data: AdkInvocation['intermediate_data']): Array<Record<string, unknown>> | null {
  if (!data) return null;
  const calls = data.tool_uses?.length
    ? data.tool_uses
    : (data.invocation_events ?? []).flatMap((event) =>
        (event.content?.parts ?? []).flatMap((p) => (p.function_call ? [p.function_call] : [])),
      );
  return calls.map((call) => ({ tool_name: call.name, tool_args: call.args ?? {} }));
}

const rubricTexts = (list: Array<z.infer<typeof rubric>> | null | undefined): string[] =>
  (list ?? []).flatMap((r) => (r.rubric_content?.text_property ? [r.rubric_content.text_property] : []));

/** Where each Assay case field comes from in an ADK case, to name it when the mapped value is invalid. */
export const ADK_FIELD_SOURCES: Readonly<Record<string, string>> = {
  name: 'eval_id',
  session_input: 'conversation[0].user_content',
  expected_trajectory: 'conversation[0].intermediate_data.tool_uses',
  expected_final_response: 'conversation[0].final_response',
  rubrics: 'rubrics',
};

/**
 * One ADK eval case as an Assay case (not yet validated): the first invocation's user text is the message, its
 * tool uses the expected trajectory, its final response text the expected response, `eval_id` the name, and the
 * rubrics' text the rubrics. A case of more than one invocation is refused: an Assay case is one turn.
 */
export function caseFromAdk(
  value: unknown,
  at: string,
): { case: Record<string, unknown> } | { problems: FieldProblem[] } {
  const parsed = adkCase.safeParse(value);
  if (!parsed.success) return { problems: issuesAt(at, parsed.error) };
  const { eval_id: id, conversation } = parsed.data;
  if (!conversation?.length)
    return {
      problems: [
        { field: `${at}.conversation`, message: `case ${id} has no conversation (user simulation is not supported)` },
      ],
    };
  if (conversation.length > 1)
    return {
      problems: [
        {
          field: `${at}.conversation`,
          message: `case ${id} has ${conversation.length} invocations; an Assay case is one turn, so multi-turn cases cannot be imported`,
        },
      ],
    };
  const [turn] = conversation;
  const rubrics = [...rubricTexts(parsed.data.rubrics), ...rubricTexts(turn.rubrics)];
  return {
    case: {
      name: id,
      session_input: { message: textOf(turn.user_content) ?? '' },
      expected_trajectory: trajectoryOf(turn.intermediate_data),
      expected_final_response: textOf(turn.final_response),
      rubrics: rubrics.length ? rubrics : null,
    },
  };
}
