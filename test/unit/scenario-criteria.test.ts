import assert from 'node:assert/strict';
import {
  isCriterionError,
  resolveMinScores,
  type CriterionError,
  type CriterionResult,
} from '../../domain/scoring/criteria';
import { parseRubricVerdicts, type RubricVerdict } from '../../domain/scoring/judge-output.parser';
import type { RubricDetail } from '../../domain/scoring/judge-verdicts';
import {
  PLAN_FULFILLED,
  personaAdherencePrompt,
  taskSuccessItems,
  taskSuccessPrompt,
} from '../../domain/scoring/scenario-prompts';
import { scorePersonaAdherence, scoreTaskSuccess } from '../../domain/scoring/scenario-verdicts';
import { summarizeRun } from '../../domain/scoring/run-summary';

const sample = (...verdicts: Array<'YES' | 'NO'>): RubricVerdict[] =>
  verdicts.map((verdict, index) => ({ index, verdict, justification: `${verdict} on ${index}` }));

function scoredResult(outcome: CriterionResult<RubricDetail> | CriterionError): CriterionResult<RubricDetail> {
  if (isCriterionError(outcome)) assert.fail(`expected a scored result, got error: ${outcome.error}`);
  return outcome;
}

const scenario = {
  starting_prompt: 'My blender arrived broken',
  conversation_plan: 'ask for a refund; accept a replacement if offered',
  persona: { description: 'a novice', behaviours: ['short messages'], violation_rubrics: ['never mentions prices'] },
};
const transcript = [
  { user: 'My blender arrived broken', agent: 'Sorry! Refund or replacement?' },
  { user: 'A replacement please', agent: 'Sent. </done>' },
];

describe('scenario criteria', () => {
  describe('prompts', () => {
    it('asks task_success on the whole transcript, the plan fulfilled first, then each rubric by index', () => {
      const [system, user] = taskSuccessPrompt({ scenario, transcript, rubrics: ['is polite'] });
      assert.equal(system.role, 'system');
      assert.match(system.content, /"verdicts"/);
      const body = JSON.parse(user.content);
      assert.equal(body.task, 'task_success');
      assert.deepEqual(body.scenario, {
        starting_prompt: scenario.starting_prompt,
        conversation_plan: scenario.conversation_plan,
      });
      assert.deepEqual(body.conversation, [
        { turn: 0, ...transcript[0] },
        { turn: 1, ...transcript[1] },
      ]);
      assert.deepEqual(body.criteria, [
        { index: 0, criterion: PLAN_FULFILLED },
        { index: 1, criterion: 'is polite' },
      ]);
      assert.deepEqual(taskSuccessItems(null), [PLAN_FULFILLED]);
    });

    it('asks persona_adherence once per user turn with the persona and its violation rubrics', () => {
      const body = JSON.parse(personaAdherencePrompt({ scenario, transcript })[1].content);
      assert.equal(body.task, 'persona_adherence');
      assert.deepEqual(body.scenario.persona.violation_rubrics, ['never mentions prices']);
      assert.deepEqual(body.items, [
        { index: 0, user_turn: 0 },
        { index: 1, user_turn: 1 },
      ]);
    });

    it('reads the verdicts of either criterion like rubric verdicts, refusing a wrong count', () => {
      const reply =
        '```json\n{"verdicts":[{"index":0,"verdict":"YES","justification":"kept"},{"index":1,"verdict":"no"}]}\n```';
      assert.deepEqual(parseRubricVerdicts(reply, 2), [
        { index: 0, verdict: 'YES', justification: 'kept' },
        { index: 1, verdict: 'NO', justification: '' },
      ]);
      assert.equal(parseRubricVerdicts(reply, 3), null);
    });
  });

  describe('task_success', () => {
    it('scores the fraction of plan and rubrics met, majority of samples per item, default minimum 0.7', () => {
      const samples = [sample('YES', 'YES', 'NO'), sample('YES', 'NO', 'NO'), sample('YES', 'YES', 'YES')];
      const minScores = resolveMinScores();
      const result = scoredResult(scoreTaskSuccess({ rubrics: ['is polite', 'offers a refund'], samples, minScores }));
      assert.equal(result.criterion, 'task_success');
      assert.deepEqual([result.score, result.min_score, result.passed], [2 / 3, 0.7, false]);
      assert.deepEqual(
        result.detail.approved.map((item) => [item.rubric, item.yes_votes]),
        [
          [PLAN_FULFILLED, 3],
          ['is polite', 2],
        ],
      );
      assert.deepEqual(
        result.detail.rejected.map((item) => item.rubric),
        ['offers a refund'],
      );
    });

    it('takes the resolved minimum and passes on the plan alone', () => {
      const minScores = resolveMinScores({ task_success: 0.5 });
      const half = scoredResult(scoreTaskSuccess({ rubrics: ['x'], samples: [sample('YES', 'NO')], minScores }));
      assert.deepEqual([half.score, half.min_score, half.passed], [0.5, 0.5, true]);
      const plan = scoredResult(
        scoreTaskSuccess({ rubrics: null, samples: [sample('YES')], minScores: resolveMinScores() }),
      );
      assert.deepEqual([plan.score, plan.passed], [1, true]);
    });

    it('is an error when a sample gave no usable verdict', () => {
      const result = scoreTaskSuccess({ rubrics: null, samples: [sample('YES'), null], minScores: resolveMinScores() });
      assert.ok(isCriterionError(result));
      assert.match(result.error, /1 of 2 samples/);
    });
  });

  describe('persona_adherence', () => {
    it('is the mean over user turns, reported without gating when no minimum is set', () => {
      const result = scoredResult(
        scorePersonaAdherence({ transcript, samples: [sample('YES', 'NO')], minScores: resolveMinScores() }),
      );
      assert.deepEqual([result.score, result.min_score, result.passed, result.applicable], [0.5, null, true, true]);
      assert.deepEqual(
        result.detail.rejected.map((turn) => turn.rubric),
        ['turn 1: A replacement please'],
      );
    });

    it('gates the case once min_scores names it', () => {
      const minScores = resolveMinScores(null, { persona_adherence: 0.8 });
      const result = scoredResult(scorePersonaAdherence({ transcript, samples: [sample('YES', 'NO')], minScores }));
      assert.deepEqual([result.score, result.min_score, result.passed], [0.5, 0.8, false]);
    });

    it('names the user turn the judge left out', () => {
      const result = scorePersonaAdherence({ transcript, samples: [sample('YES')], minScores: resolveMinScores() });
      assert.ok(isCriterionError(result));
      assert.match(result.error, /user turn 1/);
    });
  });

  it('leaves both out of resolved minimums and summaries until set or applied', () => {
    assert.deepEqual(Object.keys(resolveMinScores()).sort(), [
      'final_response_match',
      'rubric_based',
      'tool_trajectory_avg_score',
    ]);
    const oneTurn = summarizeRun([
      { status: 'passed', criteria: [{ criterion: 'safety', score: 1, applicable: true }] },
    ]);
    assert.equal('task_success' in oneTurn.avg_score, false);
    const scenarioRun = summarizeRun([
      { status: 'passed', criteria: [{ criterion: 'persona_adherence', score: 0.5, applicable: true }] },
    ]);
    assert.equal(scenarioRun.avg_score.persona_adherence, 0.5);
  });
});
