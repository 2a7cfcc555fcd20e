import type { CaseResultJson, CriterionJson, TurnResultJson } from '../../cli/eval-run.types';

const TRAJ = 'tool_trajectory_avg_score';
const MATCH = 'final_response_match';
const turnCriterion = (score: number, min: number, detail: unknown = {}): TurnResultJson['criteria'][string] => ({
  score,
  min_score: min,
  passed: score >= min,
  detail,
});

/**
 * A multi-turn case result built by hand from the issue 22 result format: turn 0 passes, turn 1 calls the wrong
 * tool and answers wrongly (it fails first), turn 2 passes, turn 3 is missing (the agent stopped). Each turn's
 * criteria come in the order Postgres returns jsonb keys (shorter first), not the order they are printed in.
 */
export function threeOfFourTurns(): CaseResultJson {
  const turns: TurnResultJson[] = [
    {
      turn: 0,
      status: 'scored',
      user_message: 'Where is order 1001?',
      expected_response: 'Order 1001 ships tomorrow.',
      actual_response: 'Order 1001 ships tomorrow.',
      passed: true,
      criteria: { [MATCH]: turnCriterion(1, 0.8), [TRAJ]: turnCriterion(1, 1) },
    },
    {
      turn: 1,
      status: 'scored',
      user_message: 'Cancel it, please.',
      expected_response: 'Order 1001 is cancelled.',
      actual_response: 'I cannot do that.',
      passed: false,
      criteria: {
        [MATCH]: turnCriterion(0, 0.8, { justifications: ['refuses instead of cancelling'] }),
        [TRAJ]: turnCriterion(0, 1, {
          mode: 'exact',
          matched: [],
          missing: [{ tool_name: 'cancel_order', tool_args: { id: 1001 }, expected_index: 0 }],
          extra: [{ tool_name: 'lookup_order', tool_args: { id: 1001 }, actual_index: 0 }],
        }),
      },
    },
    {
      turn: 2,
      status: 'scored',
      user_message: 'Thanks.',
      expected_response: 'You are welcome.',
      actual_response: 'You are welcome.',
      passed: true,
      criteria: { [MATCH]: turnCriterion(1, 0.8), [TRAJ]: turnCriterion(1, 1) },
    },
    {
      turn: 3,
      status: 'missing',
      user_message: 'Bye.',
      expected_response: 'Goodbye.',
      actual_response: null,
      passed: false,
      criteria: {
        [MATCH]: turnCriterion(0, 0.8, { reason: 'the agent gave no turn 3' }),
        [TRAJ]: turnCriterion(0, 1, { reason: 'the agent gave no turn 3' }),
      },
    },
  ];
  const mean = (key: string, min: number): CriterionJson => {
    const scores = turns.map((t) => t.criteria[key].score);
    const score = scores.reduce((a, b) => a + b, 0) / scores.length;
    const detail = {
      turns: turns.map((t) => ({ turn: t.turn, score: t.criteria[key].score, passed: t.criteria[key].passed })),
      first_failed_turn: 1,
    };
    return { score, min_score: min, passed: score >= min, applicable: true, detail };
  };
  return {
    case_id: 'case-multi',
    case_name: 'cancel an order',
    status: 'failed',
    criteria: { [TRAJ]: mean(TRAJ, 1), [MATCH]: mean(MATCH, 0.8) },
    error: null,
    turns,
    first_failed_turn: 1,
  };
}

/** A one-turn result as every run stored before turns existed (no `turns`, no `first_failed_turn`). */
export function oneTurnResult(): CaseResultJson {
  return {
    case_id: 'case-one',
    case_name: 'where is my order',
    status: 'failed',
    criteria: {
      [TRAJ]: {
        score: 1,
        min_score: 1,
        passed: true,
        applicable: true,
        detail: { matched: [], missing: [], extra: [] },
      },
      [MATCH]: { score: 0, min_score: 0.8, passed: false, applicable: true, detail: { justifications: ['wrong day'] } },
    },
    error: null,
  };
}
