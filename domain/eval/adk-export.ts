import { caseTurns, type CaseTurn } from './case-turns';
import type { ImportCase } from './eval-set-file.reader';

type Json = Record<string, unknown>;

const textContent = (role: string, text: string): Json => ({ role, parts: [{ text }] });

// ADK's rubric needs an id; Assay keeps the text only, so ids are made from the rubric's place.
const rubricsOf = (texts: readonly string[] | null | undefined, prefix: string): Json[] | undefined =>
  texts?.length
    ? texts.map((text, k) => ({ rubric_id: `${prefix}rubric-${k + 1}`, rubric_content: { text_property: text } }))
    : undefined;

// A `FunctionResponse.response` is an object in ADK; anything else is wrapped as ADK wraps a tool's plain result.
const responseObject = (value: unknown): Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : { result: value };

function invocationOf(turn: CaseTurn, index: number): Json {
  const calls = turn.expected_trajectory;
  const responses = turn.expected_tool_responses ?? [];
  const invocation: Json = {
    invocation_id: `turn-${index + 1}`,
    user_content: textContent('user', turn.user_message),
  };
  if (turn.expected_response !== null && turn.expected_response !== undefined)
    invocation.final_response = textContent('model', turn.expected_response);
  if (calls || responses.length)
    invocation.intermediate_data = {
      tool_uses: (calls ?? []).map((call) => ({ name: call.tool_name, args: call.tool_args })),
      tool_responses: responses.map((r) => ({ name: r.tool_name, response: responseObject(r.response) })),
    };
  const rubrics = rubricsOf(turn.rubrics, `turn-${index + 1}-`);
  if (rubrics) invocation.rubrics = rubrics;
  return invocation;
}

// ADK's `SessionInput` needs `app_name` and `user_id`; a case that has neither but a state gets them empty.
function sessionInputOf(c: ImportCase): Json | undefined {
  const { app_name: app, user_id: user } = c.session_input;
  if (typeof app !== 'string' && typeof user !== 'string' && !c.state) return undefined;
  return {
    app_name: typeof app === 'string' ? app : '',
    user_id: typeof user === 'string' ? user : '',
    state: c.state ?? {},
  };
}

/** One Assay case as an ADK `EvalCase`: its turns as invocations, or its conversation scenario whole. */
export function adkCaseOf(c: ImportCase): Json {
  const session = sessionInputOf(c);
  const rubrics = rubricsOf(c.rubrics, '');
  return {
    eval_id: c.name,
    ...(c.conversation_scenario && !c.turns
      ? { conversation_scenario: c.conversation_scenario }
      : { conversation: caseTurns({ ...c, turns: c.turns ?? null }).map(invocationOf) }),
    ...(session ? { session_input: session } : {}),
    ...(rubrics ? { rubrics } : {}),
    ...(c.final_state ? { final_session_state: c.final_state } : {}),
  };
}

/** A set and its cases as an ADK `EvalSet` (what `EvalSet.model_validate_json` loads), cases in name order. */
export function toAdkEvalSet(set: { name: string; description: string }, cases: readonly ImportCase[]): Json {
  const sorted = [...cases].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return {
    eval_set_id: set.name,
    name: set.name,
    ...(set.description ? { description: set.description } : {}),
    eval_cases: sorted.map(adkCaseOf),
  };
}
