import type { AdkInvocation } from './adk-schema';
import type { FieldProblem } from '../field-problems';

/** What an ADK file holds that Assay keeps no place for, each named by its ADK field: the import reports them. */
export type ImportNote = FieldProblem;

const CASE_FIELDS = new Set([
  'eval_id',
  'conversation',
  'conversation_scenario',
  'session_input',
  'creation_timestamp',
  'rubrics',
  'final_session_state',
]);
const SESSION_FIELDS = new Set(['app_name', 'user_id', 'session_id', 'state']);
const OUTER_FIELDS = new Set(['eval_set_id', 'name', 'description', 'eval_cases', 'creation_timestamp']);

const unknownKeys = (value: unknown, known: ReadonlySet<string>, at: string, what: string): ImportNote[] =>
  value !== null && typeof value === 'object'
    ? Object.keys(value)
        .filter((key) => !known.has(key))
        .map((key) => ({ field: `${at}.${key}`, message: `${what}; Assay has no place for it and does not import it` }))
    : [];

const NOT_KEPT = 'Assay has no place for it and does not import it';

// The tool calls of an invocation as ADK holds them, each with its field path.
function callsOf(invocation: AdkInvocation, at: string): Array<{ field: string; name: unknown }> {
  const data = invocation.intermediate_data;
  if (!data) return [];
  if ('invocation_events' in data)
    return (data.invocation_events ?? []).flatMap((event, e) =>
      (event.content?.parts ?? []).flatMap((part, p) =>
        part.function_call
          ? [
              {
                field: `${at}.intermediate_data.invocation_events[${e}].content.parts[${p}].function_call`,
                name: part.function_call.name,
              },
            ]
          : [],
      ),
    );
  return ('tool_uses' in data ? (data.tool_uses ?? []) : []).map((call, c) => ({
    field: `${at}.intermediate_data.tool_uses[${c}]`,
    name: call.name,
  }));
}

/** Notes on one invocation: placeholder calls (no name), `app_details`, `intermediate_responses`. */
export function invocationNotes(invocation: AdkInvocation, at: string): ImportNote[] {
  const placeholders = callsOf(invocation, at)
    .filter((call) => typeof call.name !== 'string')
    .map((call) => ({ field: call.field, message: `a tool call without a name (a placeholder); ${NOT_KEPT}` }));
  const data = invocation.intermediate_data as Record<string, unknown> | null | undefined;
  return [
    ...placeholders,
    ...(invocation.app_details ? [{ field: `${at}.app_details`, message: `the app's details; ${NOT_KEPT}` }] : []),
    ...(Array.isArray(data?.intermediate_responses) && data.intermediate_responses.length
      ? [{ field: `${at}.intermediate_data.intermediate_responses`, message: `sub-agent responses; ${NOT_KEPT}` }]
      : []),
  ];
}

/** Notes on a case: keys ADK 2.x keeps on a case or its session input but models no field for, and `session_id`. */
export function caseNotes(value: Record<string, unknown>, at: string): ImportNote[] {
  const session = value.session_input;
  const sessionId = session && typeof session === 'object' && 'session_id' in session && session.session_id != null;
  return [
    ...unknownKeys(value, CASE_FIELDS, at, 'a key ADK keeps on a case'),
    ...unknownKeys(session, SESSION_FIELDS, `${at}.session_input`, 'a key ADK keeps on a session input'),
    ...(sessionId ? [{ field: `${at}.session_input.session_id`, message: `a fixed session id; ${NOT_KEPT}` }] : []),
  ];
}

/** Notes on the outside: keys ADK's `EvalSet` ignores, and keys in camelCase (ADK reads its outer keys in snake_case). */
export function evalSetNotes(value: Record<string, unknown>): ImportNote[] {
  return Object.keys(value).flatMap((key) => {
    if (OUTER_FIELDS.has(key)) return [];
    const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    if (OUTER_FIELDS.has(snake))
      return [{ field: key, message: `read as ${snake}; ADK's EvalSet reads only ${snake} and would refuse the file` }];
    return [{ field: key, message: `a key ADK's EvalSet ignores; ${NOT_KEPT}` }];
  });
}
