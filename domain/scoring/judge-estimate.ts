import { finalResponsePrompt, rubricsPrompt } from './judge-prompts';
import { personaAdherencePrompt, taskSuccessPrompt } from './scenario-prompts';
import type { ModelPrice } from './model-prices';
import { usdOf } from './run-cost';

/** What a dry run reads of a run's cases (one aggregate query): the judged ones and the characters the judge reads. */
export interface JudgedCaseTally {
  cases: number;
  /** Cases with an expected final response, and their message plus expected response characters. */
  match_cases: number;
  match_chars: number;
  /** Cases with rubrics, their message plus rubric characters, and how many rubrics they hold. */
  rubric_cases: number;
  rubric_chars: number;
  rubrics: number;
  /**
   * Scenario cases to score (a live run's simulated users play them; docs/evaluation.md "Scenario criteria"), their
   * prompt, plan and rubric characters, and rubrics.
   */
  scenario_cases?: number;
  scenario_chars?: number;
  scenario_rubrics?: number;
}

/** The judge calls a run will make when every reply is usable, and the tokens they are estimated to take. */
export interface JudgeEstimate {
  judge_calls: number;
  prompt_tokens: number;
  completion_tokens: number;
}

// Estimation rules (README "Cost and prices"): about 4 characters a token; the agent's answer is taken to be as long
// as the expected one for a match and ANSWER_CHARS for rubrics; a verdict takes VERDICT_TOKENS (per rubric).
const CHARS_PER_TOKEN = 4;
const ANSWER_CHARS = 1_000;
const VERDICT_TOKENS = 40;

const promptChars = (messages: ReadonlyArray<{ content: string }>): number =>
  messages.reduce((sum, message) => sum + message.content.length, 0);
const MATCH_FRAME_CHARS = promptChars(finalResponsePrompt({ userInput: '', expected: '', actual: '' }));
const RUBRIC_FRAME_CHARS = promptChars(rubricsPrompt({ userInput: '', response: '', rubrics: [] }));
const NO_SCENARIO = { starting_prompt: '', conversation_plan: null, persona: null };
// A scenario's two asks (task_success, persona_adherence) each read the transcript, taken as SCENARIO_TURNS exchanges
// of ANSWER_CHARS; persona_adherence gives a verdict per turn, task_success one for the plan and one per rubric.
const SCENARIO_TURNS = 4;
const SCENARIO_FRAME_CHARS =
  promptChars(taskSuccessPrompt({ scenario: NO_SCENARIO, transcript: [], rubrics: [] })) +
  promptChars(personaAdherencePrompt({ scenario: NO_SCENARIO, transcript: [] })) +
  2 * SCENARIO_TURNS * ANSWER_CHARS;

/**
 * Estimates a run's judge work: each judged criterion of each case is asked `samples` times per repeat. The call
 * count is exact (retries and unusable replies aside); the tokens are an estimate from the cases' text.
 */
export function estimateJudgeWork(tally: JudgedCaseTally, samples: number, repeats = 1): JudgeEstimate {
  const asks = samples * repeats;
  const matchChars = tally.match_cases * MATCH_FRAME_CHARS + tally.match_chars;
  const rubricChars = tally.rubric_cases * (RUBRIC_FRAME_CHARS + ANSWER_CHARS) + tally.rubric_chars;
  const scenarios = tally.scenario_cases ?? 0;
  const scenarioChars = scenarios * SCENARIO_FRAME_CHARS + 2 * (tally.scenario_chars ?? 0);
  const scenarioVerdicts = scenarios * (1 + SCENARIO_TURNS) + (tally.scenario_rubrics ?? 0);
  return {
    judge_calls: (tally.match_cases + tally.rubric_cases + 2 * scenarios) * asks,
    prompt_tokens: Math.ceil(((matchChars + rubricChars + scenarioChars) * asks) / CHARS_PER_TOKEN),
    completion_tokens: (tally.match_cases + tally.rubrics + scenarioVerdicts) * VERDICT_TOKENS * asks,
  };
}

// A simulated user's prompt: its instructions and plan (about SIMULATOR_FRAME_CHARS) and the transcript so far; its
// reply, a user's message, takes about SIMULATOR_REPLY_TOKENS.
const SIMULATOR_FRAME_CHARS = 2_000;
const SIMULATOR_REPLY_TOKENS = 60;

/**
 * Estimates a live run's simulator work: at most `maxTurns − 1` calls per scenario case and repeat (the first user
 * turn is the starting prompt), each reading the plan and, on average, half the turns of transcript. An upper bound
 * on the calls: a simulated user that stops early, or a frozen simulation, makes fewer.
 */
export function estimateSimulatorWork(scenarioCases: number, maxTurns: number, repeats = 1): JudgeEstimate {
  const calls = scenarioCases * Math.max(0, maxTurns - 1) * repeats;
  const promptChars = SIMULATOR_FRAME_CHARS + (maxTurns / 2) * 2 * ANSWER_CHARS;
  return {
    judge_calls: calls,
    prompt_tokens: Math.ceil((calls * promptChars) / CHARS_PER_TOKEN),
    completion_tokens: calls * SIMULATOR_REPLY_TOKENS,
  };
}

/** The estimated judge cost in USD, or null when the judge model has no price. */
export function estimatedJudgeUsd(estimate: JudgeEstimate, price: ModelPrice | null): number | null {
  return price ? usdOf(price, estimate) : null;
}
