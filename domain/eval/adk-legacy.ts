import { z } from 'zod';
import { issuesAt, type FieldProblem } from '../field-problems';

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// One query of ADK's formats before the EvalSet: what the user asks, the tools expected, the reference reply.
const legacyQuery = z.looseObject({
  query: z.string(),
  expected_tool_use: z
    .array(z.looseObject({ tool_name: z.string(), tool_input: z.record(z.string(), z.unknown()).nullish() }))
    .nullish(),
  reference: z.string().nullish(),
});
const legacyCase = z.looseObject({
  name: z.string(),
  data: z.array(legacyQuery),
  initial_session: z
    .looseObject({ app_name: z.string().optional(), user_id: z.string().optional(), state: z.unknown() })
    .nullish(),
  initial_state: z.record(z.string(), z.unknown()).nullish(),
});

/** Whether a parsed JSON document is the old `.test.json` list of queries. */
export const isAdkTestList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && 'query' in item);

/** Whether a parsed JSON document is the pre-EvalSet `adk web` list of `{name, data[], initial_state}`. */
export const isAdkWebList = (value: unknown): value is unknown[] =>
  Array.isArray(value) && value.length > 0 && value.every((item) => isObject(item) && 'data' in item);

// As ADK's `_convert_invocation_to_pydantic_schema`: the query is the user content, the reference the final
// response ("" when absent), the expected tool uses the tool uses.
const invocation = (query: z.infer<typeof legacyQuery>) => ({
  user_content: { role: 'user', parts: [{ text: query.query }] },
  final_response: { role: 'model', parts: [{ text: query.reference ?? '' }] },
  intermediate_data: {
    tool_uses: (query.expected_tool_use ?? []).map((use) => ({ name: use.tool_name, args: use.tool_input ?? {} })),
  },
});

// ADK keeps `initial_session` (app_name, user_id, state); the `initial_state` older `adk web` files wrote is the state.
function sessionInput(item: z.infer<typeof legacyCase>): Record<string, unknown> | undefined {
  const session = item.initial_session;
  if (session && Object.keys(session).length)
    return { app_name: session.app_name ?? '', user_id: session.user_id ?? '', state: session.state ?? {} };
  return item.initial_state ? { app_name: '', user_id: '', state: item.initial_state } : undefined;
}

export type LegacyRead = { evalSet: Record<string, unknown> } | { problems: FieldProblem[] };

/**
 * The old `.test.json` list as ADK's `AgentEvaluator.migrate_eval_data_to_new_schema` converts it: ONE eval case
 * whose invocations are the queries in order, named `caseName` (ADK names it by the file's path).
 */
export function adkTestListToEvalSet(value: unknown[], caseName: string): LegacyRead {
  const parsed = z.array(legacyQuery).safeParse(value);
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  return {
    evalSet: { eval_set_id: caseName, eval_cases: [{ eval_id: caseName, conversation: parsed.data.map(invocation) }] },
  };
}

/** The pre-EvalSet `adk web` list as ADK's `convert_eval_set_to_pydantic_schema` converts it: one case per item. */
export function adkWebListToEvalSet(value: unknown[], setName: string): LegacyRead {
  const parsed = z.array(legacyCase).safeParse(value);
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  const cases = parsed.data.map((item) => {
    const session = sessionInput(item);
    return {
      eval_id: item.name,
      conversation: item.data.map(invocation),
      ...(session ? { session_input: session } : {}),
    };
  });
  return { evalSet: { eval_set_id: setName, eval_cases: cases } };
}

// The converted EvalSet's fields and the old list's fields they came from.
const INVOCATION_FIELDS: ReadonlyArray<[RegExp, string]> = [
  [/^\.user_content/, '.query'],
  [/^\.final_response/, '.reference'],
  [/^\.intermediate_data\.tool_uses(\[\d+\])?\.tool_args/, '.expected_tool_use$1.tool_input'],
  [/^\.intermediate_data\.tool_uses/, '.expected_tool_use'],
];

/**
 * A problem of the converted EvalSet named by the field of the old list it came from (`[1].query` of a `.test.json`
 * list, `[0].data[2].query` of an `adk web` list).
 */
export function legacyField(field: string, list: unknown[]): string {
  const testList = isAdkTestList(list);
  const match = /^eval_cases\[(\d+)\](.*)$/.exec(field);
  if (!match) return field;
  const [, index, rest] = match;
  const item = testList ? '' : `[${index}]`;
  const turn = /^\.conversation\[(\d+)\](.*)$/.exec(rest);
  if (turn) {
    const [from, to] = INVOCATION_FIELDS.find(([pattern]) => pattern.test(turn[2])) ?? [/^/, ''];
    return `${item}${testList ? '' : '.data'}[${turn[1]}]${turn[2].replace(from, to)}`;
  }
  if (rest.startsWith('.conversation')) return testList ? '(body)' : `${item}.data`;
  if (rest.startsWith('.eval_id')) return `${item}.name`;
  const old = list[Number(index)];
  const stateKey = isObject(old) && 'initial_state' in old ? '.initial_state' : '.initial_session.state';
  return `${item}${rest.replace(/^\.session_input\.state/, stateKey).replace(/^\.session_input/, '.initial_session')}`;
}
