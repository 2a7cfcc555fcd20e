/** One chat message sent to the judge. */
export interface JudgeMessage {
  role: 'system' | 'user';
  content: string;
}

/** What the judge is asked; the user message is a JSON object whose `task` names the criterion it serves. */
export type JudgeTask =
  | 'final_response_match'
  | 'rubric_based'
  | 'task_success'
  | 'persona_adherence'
  | 'hallucinations'
  | 'rubric_based_tool_use';

const FINAL_RESPONSE_SYSTEM = [
  'You are an evaluation judge for AI agents.',
  'Decide whether the actual final response of the agent is equivalent in meaning to the expected response,',
  'given the user input. Wording, formatting and order may differ; facts, commitments and outcomes must not.',
  'Reply with JSON only: {"equivalent": true or false, "justification": "<one short sentence>"}.',
].join(' ');

const RUBRICS_SYSTEM = [
  'You are an evaluation judge for AI agents.',
  'Judge the final response of the agent against each rubric, using the user input as context and no reference answer.',
  'Answer YES when the response satisfies the rubric, otherwise NO.',
  'Reply with JSON only: {"verdicts": [{"index": <rubric index>, "verdict": "YES" or "NO", "justification": "<one short sentence>"}]}',
  'with exactly one entry per rubric, each addressed by the index given with it.',
].join(' ');

/** The messages asking whether `actual` is equivalent in meaning to `expected`. */
export function finalResponsePrompt(input: { userInput: string; expected: string; actual: string }): JudgeMessage[] {
  const task: JudgeTask = 'final_response_match';
  const user = { task, user_input: input.userInput, expected_response: input.expected, actual_response: input.actual };
  return [
    { role: 'system', content: FINAL_RESPONSE_SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}

/** The messages asking for a YES / NO verdict per rubric, each rubric addressed by its 0-based index. */
export function rubricsPrompt(input: {
  userInput: string;
  response: string;
  rubrics: readonly string[];
}): JudgeMessage[] {
  const task: JudgeTask = 'rubric_based';
  const rubrics = input.rubrics.map((rubric, index) => ({ index, rubric }));
  const user = { task, user_input: input.userInput, response: input.response, rubrics };
  return [
    { role: 'system', content: RUBRICS_SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}

const TOOL_USE_SYSTEM = [
  'You are an evaluation judge for AI agents.',
  "Judge the agent's tool calls (which tools it called, in what order, with which arguments, and what it did with",
  'their results) against each rubric, using the user messages as context. Do not judge the wording of its replies.',
  'Answer YES when the tool use satisfies the rubric, otherwise NO.',
  'Reply with JSON only: {"verdicts": [{"index": <rubric index>, "verdict": "YES" or "NO", "justification": "<one short sentence>"}]}',
  'with exactly one entry per rubric, each addressed by the index given with it.',
].join(' ');

/** One tool call as the tool-use judge reads it: the turn it was made in, name, arguments, result. */
export interface JudgedToolCall {
  turn: number;
  tool_name: string;
  tool_args: Record<string, unknown>;
  result: unknown;
}

/** The messages asking for a YES / NO verdict per tool-use rubric over the whole trajectory with its results. */
export function toolUseRubricsPrompt(input: {
  userMessages: readonly string[];
  toolCalls: readonly JudgedToolCall[];
  rubrics: readonly string[];
}): JudgeMessage[] {
  const task: JudgeTask = 'rubric_based_tool_use';
  const rubrics = input.rubrics.map((rubric, index) => ({ index, rubric }));
  const user = { task, user_messages: input.userMessages, tool_calls: input.toolCalls, rubrics };
  return [
    { role: 'system', content: TOOL_USE_SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}
