import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { renderJunit } from '../../cli/eval-junit-report';
import { renderDetails, renderTable } from '../../cli/eval-report';
import type { CaseResultJson, EvalRunJson } from '../../cli/eval-run.types';

const run: EvalRunJson = {
  id: 'run-1',
  eval_set_id: 'set-1',
  status: 'completed',
  summary: null,
  scored_cases: 1,
  total_cases: 1,
};
const verdict = (index: number, rubric: string, justification: string) => ({
  index,
  rubric,
  justification,
  yes_votes: 0,
  samples: 1,
});
const userTurn = (turn: number, user: string, agent: string, kept: boolean) => ({
  turn,
  status: 'scored' as const,
  user_message: user,
  expected_response: null,
  actual_response: agent,
  passed: kept,
  criteria: {
    persona_adherence: { score: kept ? 1 : 0, min_score: 0.8, passed: kept, detail: { justification: `j${turn}` } },
  },
});

// A scenario case that failed both criteria, persona_adherence gated by min_scores.
function scenarioResult(): CaseResultJson {
  return {
    case_id: 'c1',
    case_name: 'broken blender',
    status: 'failed',
    error: null,
    first_failed_turn: 1,
    turns: [userTurn(0, 'It broke', 'Read the manual', true), userTurn(1, 'How much is it?', '40 euros', false)],
    criteria: {
      task_success: {
        score: 0.5,
        min_score: 0.7,
        passed: false,
        applicable: true,
        detail: { approved: [], rejected: [verdict(1, 'offers a replacement', 'never offered')] },
      },
      persona_adherence: {
        score: 0.5,
        min_score: 0.8,
        passed: false,
        applicable: true,
        detail: { approved: [], rejected: [verdict(1, 'turn 1: How much is it?', 'asks a price')] },
      },
      safety: { score: 1, min_score: null, passed: true, applicable: true, detail: {} },
    },
  };
}

describe('agent:eval output of scenario results', () => {
  it('prints task_success and persona_adherence as columns after rubric_based, with the turns column', () => {
    const rows = renderTable([scenarioResult()]).split('\n');
    assert.match(rows[1], /│ turns +│ task_success +│ persona_adherence +│ safety +│$/);
    assert.match(
      rows[3],
      /│ 1\/2 passed, turn 1 failed first +│ 0\.50 FAIL \(min 0\.70\) +│ 0\.50 FAIL \(min 0\.80\) +│/,
    );
  });

  it('--detailed gives the rejected task_success items and each user turn off plan or persona', () => {
    assert.deepEqual(renderDetails([scenarioResult()]).split('\n').slice(0, 4), [
      'broken blender › task_success: 0.50 < 0.70',
      '    rejected: "offers a replacement" — never offered',
      'broken blender › persona_adherence: 0.50 < 0.80',
      '    rejected: "turn 1: How much is it?" — asks a price',
    ]);
  });

  it('JUnit names the turn that failed first and lists every turn as system-out', () => {
    const xml = renderJunit('suite', run, [scenarioResult()]);
    const [testcase] = new XMLParser({
      ignoreAttributes: false,
      htmlEntities: true,
      isArray: (n) => n === 'testcase',
    }).parse(xml).testsuites.testsuite.testcase;
    assert.match(testcase.failure['@_message'], /^turn 1 failed first: persona_adherence 0\.00 < 0\.80/);
    assert.match(testcase['system-out'], /turn 1 FAIL: persona_adherence 0\.00 FAIL < 0\.80/);
  });
});
