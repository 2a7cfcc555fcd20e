import {
  adkCase,
  adkEvalSetSchema,
  adkInvocation,
  type AdkContent,
  type AdkFunctionCall,
  type AdkFunctionResponse,
  type AdkInvocation,
  type AdkRubric,
} from './adk-schema';
import type { CaseTurn } from './case-turns';
import { caseNotes, invocationNotes, type ImportNote } from './adk-import-notes';
import { fieldPath, issuesAt, type FieldProblem } from '../field-problems';
import type { z } from 'zod';

export { adkEvalSetSchema } from './adk-schema';

const ADK_SET_KEYS = ['eval_cases', 'evalCases', 'eval_set_id', 'evalSetId'];

/** Whether a parsed JSON document is an ADK eval set (it has `eval_cases` or `eval_set_id`, in either casing). */
export function isAdkEvalSet(value: unknown): boolean {
  return value !== null && typeof value === 'object' && ADK_SET_KEYS.some((key) => key in value);
}

/** The set an ADK file names: its `name`, else its `eval_set_id`. */
export function adkSetName(value: z.infer<typeof adkEvalSetSchema>): string | undefined {
  return value.name ?? value.eval_set_id ?? undefined;
}

/** The text of a content: its text parts joined by newlines (null-filled parts and non-text parts skipped). */
export const adkTextOf = (value: AdkContent | null | undefined): string | null => {
  const texts = (value?.parts ?? []).flatMap((p) => (typeof p.text === 'string' ? [p.text] : []));
  return texts.length ? texts.join('\n') : null;
};

type Data = NonNullable<AdkInvocation['intermediate_data']>;
type Events = Extract<Data, { invocation_events?: unknown }>;
const isEvents = (data: Data): data is Events => 'invocation_events' in data;

// `tool_uses`/`tool_responses` in the classic shape; `invocation_events` carry both as parts of their contents.
function callsAndResponses(data: Data): { calls: AdkFunctionCall[]; responses: AdkFunctionResponse[] } {
  if (!isEvents(data)) return { calls: data.tool_uses ?? [], responses: data.tool_responses ?? [] };
  const parts = (data.invocation_events ?? []).flatMap((event) => event.content?.parts ?? []);
  return {
    calls: parts.flatMap((p) => (p.function_call ? [p.function_call] : [])),
    responses: parts.flatMap((p) => (p.function_response ? [p.function_response] : [])),
  };
}

// Responses in the order of the calls they answer (joined by id), then any response no call's id names.
function joinedResponses(calls: AdkFunctionCall[], responses: AdkFunctionResponse[]) {
  const byId = new Map(calls.flatMap((call) => (call.id ? [[call.id, call.name] as const] : [])));
  const ordered = calls.flatMap((call) => responses.filter((r) => call.id && r.id === call.id));
  const rest = responses.filter((r) => !r.id || !byId.has(r.id));
  return [...ordered, ...rest].map((r) => ({
    tool_name: r.name ?? (r.id ? byId.get(r.id) : undefined) ?? '',
    response: r.response ?? {},
  }));
}

const rubricTexts = (list: AdkRubric[] | null | undefined): string[] =>
  (list ?? []).flatMap((r) => (r.rubric_content?.text_property ? [r.rubric_content.text_property] : []));

const named = (call: AdkFunctionCall): call is AdkFunctionCall & { name: string } => typeof call.name === 'string';

/** One ADK invocation as a case turn; absent expectations stay absent, a call without a name (a placeholder) too. */
export function turnFromAdk(invocation: AdkInvocation): CaseTurn {
  const turn: CaseTurn = { user_message: adkTextOf(invocation.user_content) ?? '' };
  const data = invocation.intermediate_data;
  if (data) {
    const { calls, responses } = callsAndResponses(data);
    const kept = calls.filter(named);
    turn.expected_trajectory = kept.map((call) => ({ tool_name: call.name, tool_args: call.args ?? {} }));
    if (responses.length) turn.expected_tool_responses = joinedResponses(calls, responses);
  }
  const reply = adkTextOf(invocation.final_response);
  if (reply !== null) turn.expected_response = reply;
  const rubrics = rubricTexts(invocation.rubrics);
  if (rubrics.length) turn.rubrics = rubrics;
  return turn;
}

const TURN_SOURCES: Readonly<Record<string, string>> = {
  user_message: 'user_content',
  expected_trajectory: 'intermediate_data.tool_uses',
  expected_tool_responses: 'intermediate_data.tool_responses',
  expected_response: 'final_response',
  rubrics: 'rubrics',
};
const CASE_SOURCES: Readonly<Record<string, string>> = {
  name: 'eval_id',
  expected_trajectory: 'conversation[0].intermediate_data.tool_uses',
  expected_final_response: 'conversation[0].final_response',
  rubrics: 'rubrics',
  state: 'session_input.state',
  final_state: 'final_session_state',
  conversation_scenario: 'conversation_scenario',
};

/** The ADK field an Assay case field came from (`turns[1].user_message` → `conversation[1].user_content`). */
export function adkSourceOf(path: ReadonlyArray<PropertyKey>, scenario: boolean): string {
  const [key, index, field, ...rest] = path;
  if (key === 'turns' && typeof index === 'number' && typeof field === 'string')
    return fieldPath(`conversation[${index}].${TURN_SOURCES[field] ?? field}`, rest);
  if (key === 'turns') return fieldPath('conversation', path.slice(1));
  if (key === 'session_input' && index === 'message')
    return scenario ? 'conversation_scenario.starting_prompt' : 'conversation[0].user_content';
  const source = CASE_SOURCES[String(key)];
  return source ? fieldPath(source, path.slice(1)) : fieldPath('', path);
}

const single = (turns: CaseTurn[]): boolean =>
  turns.length === 1 && !turns[0].rubrics?.length && !turns[0].expected_tool_responses?.length;

/** Parses each invocation on its own, so a bad one is named by its place (`conversation[1].user_content`). */
type TurnsRead = { turns: CaseTurn[]; notes: ImportNote[] } | { problems: FieldProblem[] };

function turnsFrom(values: unknown[], at: string): TurnsRead {
  const [problems, notes]: FieldProblem[][] = [[], []];
  const turns = values.flatMap((value, j) => {
    const parsed = adkInvocation.safeParse(value);
    if (!parsed.success) {
      problems.push(...issuesAt(`${at}.conversation[${j}]`, parsed.error));
      return [];
    }
    notes.push(...invocationNotes(parsed.data, `${at}.conversation[${j}]`));
    return [turnFromAdk(parsed.data)];
  });
  return problems.length ? { problems } : { turns, notes };
}

/** How a refusal of a case ADK loads starts: Assay cannot run it (it has no invocation to send). */
export const CANNOT_RUN = 'ADK loads this, but Assay cannot run it';

/**
 * One ADK eval case as an Assay case body (not yet validated): `eval_id` is the name, each invocation a turn
 * (a case of one plain invocation keeps the single-turn fields), `session_input.app_name`/`user_id` stay in
 * `session_input`, its `state` is the case's `state`, `final_session_state` its `final_state`, case rubrics are
 * case-level rubrics, and a `conversation_scenario` is stored whole.
 */
export function caseFromAdk(
  value: unknown,
  at: string,
): { case: Record<string, unknown>; scenario: boolean; notes: ImportNote[] } | { problems: FieldProblem[] } {
  const parsed = adkCase.safeParse(value);
  if (!parsed.success) return { problems: issuesAt(at, parsed.error) };
  const { eval_id: name, conversation, conversation_scenario: scenario, session_input: session } = parsed.data;
  if (conversation && scenario)
    return {
      problems: [
        { field: `${at}.conversation_scenario`, message: 'give a conversation or a conversation_scenario, not both' },
      ],
    };
  if (!scenario && !conversation)
    return {
      problems: [{ field: `${at}.conversation`, message: 'give a conversation or a conversation_scenario' }],
    };
  if (!scenario && !conversation?.length)
    return { problems: [{ field: `${at}.conversation`, message: `${CANNOT_RUN}: case ${name} has no invocations` }] };
  const extras = Object.fromEntries(
    (['app_name', 'user_id'] as const).flatMap((key) =>
      typeof session?.[key] === 'string' ? [[key, session[key]]] : [],
    ),
  );
  const rubrics = rubricTexts(parsed.data.rubrics);
  const common = {
    name,
    rubrics: rubrics.length ? rubrics : null,
    ...(session?.state ? { state: session.state } : {}),
    ...(parsed.data.final_session_state ? { final_state: parsed.data.final_session_state } : {}),
  };
  if (scenario) {
    const message = typeof scenario.starting_prompt === 'string' ? scenario.starting_prompt : '';
    return {
      case: { ...common, session_input: { message, ...extras }, conversation_scenario: scenario },
      scenario: true,
      notes: caseNotes(parsed.data, at),
    };
  }
  const read = turnsFrom(conversation ?? [], at);
  if ('problems' in read) return read;
  const { turns } = read;
  const notes = [...caseNotes(parsed.data, at), ...read.notes];
  if (!single(turns))
    return {
      case: { ...common, session_input: { message: turns[0].user_message, ...extras }, turns },
      scenario: false,
      notes,
    };
  const [turn] = turns;
  const fields = {
    session_input: { message: turn.user_message, ...extras },
    expected_trajectory: turn.expected_trajectory ?? null,
    expected_final_response: turn.expected_response ?? null,
  };
  return { case: { ...common, ...fields }, scenario: false, notes };
}
