import assert from 'node:assert/strict';
import { notApplicable, scored } from '../../domain/scoring/criteria';
import {
  absentTurn,
  firstFailedTurn,
  overTurns,
  scoredTurn,
  turnStatus,
  type TurnOutcome,
} from '../../domain/scoring/turn-outcomes';

const sides = (turn: number) => ({ turn, user_message: `u${turn}`, expected_response: null, actual_response: null });
const trajectory = { criterion: 'tool_trajectory_avg_score' as const, minScore: 1 };
const rubrics = { criterion: 'rubric_based' as const, minScore: 0.7 };

describe('turn outcomes', () => {
  it('aligns turns by position: scored where both sides have one, missing or extra past the shorter side', () => {
    assert.deepEqual(
      [0, 1, 2, 3].map((index) => turnStatus(index, 3, 2)),
      ['scored', 'scored', 'missing', 'extra'],
    );
    assert.deepEqual(
      [0, 1, 2].map((index) => turnStatus(index, 1, 3)),
      ['scored', 'extra', 'extra'],
    );
  });

  it('keeps only the applied criteria of a scored turn and passes it when each of them passed', () => {
    const turn = scoredTurn(sides(0), [
      scored('tool_trajectory_avg_score', 1, 1, { mode: 'exact' }),
      notApplicable('final_response_match', 0.8, 'none'),
      scored('rubric_based', 0.5, 0.7, {}),
    ]);
    assert.deepEqual(Object.keys(turn.criteria), ['tool_trajectory_avg_score', 'rubric_based']);
    assert.equal(turn.status, 'scored');
    assert.equal(turn.passed, false);
    assert.deepEqual(turn.criteria.tool_trajectory_avg_score, {
      score: 1,
      min_score: 1,
      passed: true,
      detail: { mode: 'exact' },
    });
  });

  it('scores a missing or extra turn 0 on every per-turn criterion with a detail naming the turn', () => {
    const missing = absentTurn(sides(2), 'missing', [trajectory, rubrics]);
    assert.equal(missing.passed, false);
    assert.deepEqual(missing.criteria.rubric_based, {
      score: 0,
      min_score: 0.7,
      passed: false,
      detail: { reason: 'the agent gave no turn 2' },
    });
    const extra = absentTurn(sides(3), 'extra', [trajectory]);
    assert.equal(extra.status, 'extra');
    assert.deepEqual(extra.criteria.tool_trajectory_avg_score?.detail, { reason: 'turn 3 was not expected' });
  });

  it('scores a criterion at case level as the mean over the turns it applies to, passing on the mean', () => {
    const turns: TurnOutcome[] = [
      scoredTurn(sides(0), [scored('tool_trajectory_avg_score', 1, 1, {})]),
      scoredTurn(sides(1), [notApplicable('tool_trajectory_avg_score', 1, 'none')]),
      scoredTurn(sides(2), [scored('tool_trajectory_avg_score', 0.5, 0.5, {})]),
    ];
    const lenient = overTurns({ criterion: 'tool_trajectory_avg_score', minScore: 0.75 }, turns);
    assert.equal(lenient.score, 0.75);
    assert.equal(lenient.passed, true);
    assert.deepEqual(lenient.detail, {
      turns: [
        { turn: 0, score: 1, passed: true },
        { turn: 2, score: 0.5, passed: true },
      ],
      first_failed_turn: null,
    });
    const strict = overTurns(trajectory, [...turns, absentTurn(sides(3), 'extra', [trajectory])]);
    assert.equal(strict.score, 0.5);
    assert.equal(strict.passed, false);
    assert.equal((strict.detail as { first_failed_turn: number }).first_failed_turn, 3);
  });

  it('counts the case-level rubrics judgement as one more entry of rubric_based', () => {
    const turns = [scoredTurn(sides(0), [scored('rubric_based', 1, 0.7, {})])];
    const whole = scored('rubric_based', 0, 0.7, { approved: [], rejected: [] });
    const result = overTurns(rubrics, turns, whole);
    assert.equal(result.score, 0.5);
    assert.equal(result.passed, false);
    assert.deepEqual((result.detail as { conversation: unknown }).conversation, {
      score: 0,
      passed: false,
      detail: { approved: [], rejected: [] },
    });
  });

  it('marks a criterion no turn applies as not applicable', () => {
    const result = overTurns(rubrics, [scoredTurn(sides(0), [scored('tool_trajectory_avg_score', 1, 1, {})])]);
    assert.equal(result.applicable, false);
    assert.equal(result.passed, true);
  });

  it('names the first turn that did not pass, or null', () => {
    const pass = scoredTurn(sides(0), [scored('tool_trajectory_avg_score', 1, 1, {})]);
    const fail = scoredTurn(sides(1), [scored('tool_trajectory_avg_score', 0, 1, {})]);
    assert.equal(firstFailedTurn([pass, fail, absentTurn(sides(2), 'missing', [trajectory])]), 1);
    assert.equal(firstFailedTurn([pass]), null);
  });
});
