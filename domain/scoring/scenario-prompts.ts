import type { JudgeMessage, JudgeTask } from './judge-prompts';

/** One turn of a scenario's transcript as the judge reads it: the simulated user's message and the agent's reply. */
export interface TranscriptTurn {
  user: string;
  agent: string;
}

/** The scenario a transcript played: what the simulated user set out to do, and who it was to be. */
export interface ScenarioBrief {
  starting_prompt: string;
  conversation_plan: string | null;
  /** A built-in persona's name, or a persona written out. */
  persona: string | { description?: string; behaviours?: string[]; violation_rubrics?: string[] } | null;
}

/** The item `task_success` checks first, before the case's rubrics (index 0 of its verdicts). */
export const PLAN_FULFILLED = "The agent accomplished the user's goal as the starting prompt and the plan describe it.";

const VERDICT_FORMAT = [
  'Reply with JSON only: {"verdicts": [{"index": <index>, "verdict": "YES" or "NO", "justification": "<one short sentence>"}]}',
  'with exactly one entry per item, each addressed by the index given with it.',
].join(' ');

const TASK_SUCCESS_SYSTEM = [
  'You are an evaluation judge for AI agents.',
  'Read the whole conversation between a simulated user and the agent, and judge it against each criterion,',
  'using the scenario (starting prompt, plan) as what the user wanted.',
  'Answer YES when the conversation as a whole satisfies the criterion, otherwise NO.',
  VERDICT_FORMAT,
].join(' ');

const PERSONA_SYSTEM = [
  'You are an evaluation judge for user simulators.',
  'Each user message of the conversation was written by a simulator that had to follow the plan and play the persona.',
  'For each user turn answer YES when that message keeps to the plan and the persona and breaks none of its',
  'violation rubrics, otherwise NO. Judge the user messages only, not the agent.',
  VERDICT_FORMAT,
].join(' ');

const numbered = (turns: readonly TranscriptTurn[]) => turns.map((turn, index) => ({ turn: index, ...turn }));

function message(system: string, user: { task: JudgeTask } & Record<string, unknown>): JudgeMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: JSON.stringify(user) },
  ];
}

/** The items `task_success` judges, in verdict order: the plan fulfilled, then each of the case's rubrics. */
export function taskSuccessItems(rubrics: readonly string[] | null | undefined): string[] {
  return [PLAN_FULFILLED, ...(rubrics ?? [])];
}

/** The messages asking one verdict per item (`taskSuccessItems`) on the whole transcript. */
export function taskSuccessPrompt(input: {
  scenario: ScenarioBrief;
  transcript: readonly TranscriptTurn[];
  rubrics: readonly string[] | null | undefined;
}): JudgeMessage[] {
  const criteria = taskSuccessItems(input.rubrics).map((criterion, index) => ({ index, criterion }));
  const { starting_prompt, conversation_plan } = input.scenario;
  return message(TASK_SUCCESS_SYSTEM, {
    task: 'task_success',
    scenario: { starting_prompt, conversation_plan },
    conversation: numbered(input.transcript),
    criteria,
  });
}

/** The messages asking one verdict per user turn (index = the turn) on whether the simulator kept to its part. */
export function personaAdherencePrompt(input: {
  scenario: ScenarioBrief;
  transcript: readonly TranscriptTurn[];
}): JudgeMessage[] {
  return message(PERSONA_SYSTEM, {
    task: 'persona_adherence',
    scenario: input.scenario,
    conversation: numbered(input.transcript),
    items: input.transcript.map((_, index) => ({ index, user_turn: index })),
  });
}
