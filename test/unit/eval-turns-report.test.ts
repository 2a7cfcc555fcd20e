import assert from 'node:assert/strict';
import { XMLParser } from 'fast-xml-parser';
import { caseChange } from '../../cli/eval-compare-report';
import { renderJunit } from '../../cli/eval-junit-report';
import { renderDetails, renderTable } from '../../cli/eval-report';
import type { CaseComparisonJson, CaseResultJson, EvalRunJson } from '../../cli/eval-run.types';
import { oneTurnResult, threeOfFourTurns } from '../helpers/turn-results';

const TRAJ = 'tool_trajectory_avg_score';
const MATCH = 'final_response_match';
const run: EvalRunJson = {
  id: 'run-1',
  eval_set_id: 'set-1',
  status: 'completed',
  summary: null,
  scored_cases: 2,
  total_cases: 2,
};
const testcases = (xml: string): Array<Record<string, any>> =>
  new XMLParser({ ignoreAttributes: false, htmlEntities: true, isArray: (name) => name === 'testcase' }).parse(xml)
    .testsuites.testsuite.testcase;

describe('agent:eval output of multi-turn results', () => {
  it('adds a turns column with the turns passed and the turn that failed first, "-" for a one-turn case', () => {
    const rows = renderTable([threeOfFourTurns(), oneTurnResult()]).split('\n');
    assert.match(rows[1], /│ case +│ status +│ turns +│ tool_trajectory_avg_score +│ final_response_match +│/);
    assert.match(
      rows[3],
      /│ cancel an order +│ FAILED +│ 2\/4 passed, turn 1 failed first +│ 0\.50 FAIL \(min 1\.00\) +│/,
    );
    assert.match(rows[5], /│ where is my order +│ FAILED +│ - +│ 1\.00 pass +│ 0\.00 FAIL \(min 0\.80\) +│/);
  });

  it('prints an opted-in response_match_score as a column after final_response_match', () => {
    const result = oneTurnResult();
    result.criteria = {
      ...result.criteria,
      response_match_score: { score: 0.4, min_score: 0.8, passed: false, applicable: true, detail: {} },
    };
    assert.match(renderTable([result]).split('\n')[1], /│ final_response_match +│ response_match_score +│$/);
  });

  it('prints a one-turn-only table without a turns column', () => {
    assert.doesNotMatch(renderTable([oneTurnResult()]), /turns/);
  });

  it('--detailed names each failed turn in the criterion detail, then the turn that failed first and every turn', () => {
    assert.deepEqual(renderDetails([threeOfFourTurns()]).split('\n'), [
      `cancel an order › ${TRAJ}: 0.50 < 1.00`,
      '    turn 1: missing: cancel_order({"id":1001})',
      '    turn 1: extra: lookup_order({"id":1001})',
      '    turn 3: the agent gave no turn 3',
      `cancel an order › ${MATCH}: 0.50 < 0.80`,
      '    turn 1: {"justifications":["refuses instead of cancelling"]}',
      '    turn 3: the agent gave no turn 3',
      `cancel an order › turn 1 failed first: ${TRAJ} 0.00 < 1.00, ${MATCH} 0.00 < 0.80`,
      `    turn 0 pass: ${TRAJ} 1.00, ${MATCH} 1.00`,
      `    turn 1 FAIL: ${TRAJ} 0.00 FAIL < 1.00, ${MATCH} 0.00 FAIL < 0.80`,
      `    turn 2 pass: ${TRAJ} 1.00, ${MATCH} 1.00`,
      `    turn 3 missing FAIL: ${TRAJ} 0.00 FAIL < 1.00, ${MATCH} 0.00 FAIL < 0.80 (the agent gave no turn 3)`,
    ]);
  });

  it('--detailed gives the verdict of the case-level rubrics judged over the whole conversation', () => {
    const result = threeOfFourTurns();
    const rejected = [{ rubric: 'stays polite', justification: 'snaps at the customer in turn 1' }];
    result.criteria.rubric_based = {
      score: 0,
      min_score: 1,
      passed: false,
      applicable: true,
      detail: { turns: [], first_failed_turn: null, conversation: { score: 0, passed: false, detail: { rejected } } },
    };
    const lines = renderDetails([result]).split('\n');
    const at = lines.indexOf('cancel an order › rubric_based: 0.00 < 1.00');
    assert.equal(lines[at + 1], '    conversation: rejected: "stays polite" — snaps at the customer in turn 1');
  });

  it('--detailed prints a one-turn case as before: the failed criterion and its detail only', () => {
    assert.equal(
      renderDetails([oneTurnResult()]),
      `where is my order › ${MATCH}: 0.00 < 0.80\n    {"justifications":["wrong day"]}`,
    );
  });

  it('JUnit: the failure message names the first failed turn and its failing criteria; system-out lists every turn', () => {
    const [multi, one] = testcases(renderJunit('smoke', run, [threeOfFourTurns(), oneTurnResult()]));
    assert.equal(multi['@_name'], 'cancel an order');
    assert.equal(multi.failure['@_message'], `turn 1 failed first: ${TRAJ} 0.00 < 1.00, ${MATCH} 0.00 < 0.80`);
    assert.match(multi.failure['#text'], /turn 1: missing: cancel_order\({"id":1001}\)/);
    assert.deepEqual(multi['system-out'].split('\n'), [
      `turn 0 pass: ${TRAJ} 1.00, ${MATCH} 1.00`,
      `turn 1 FAIL: ${TRAJ} 0.00 FAIL < 1.00, ${MATCH} 0.00 FAIL < 0.80`,
      `turn 2 pass: ${TRAJ} 1.00, ${MATCH} 1.00`,
      `turn 3 missing FAIL: ${TRAJ} 0.00 FAIL < 1.00, ${MATCH} 0.00 FAIL < 0.80 (the agent gave no turn 3)`,
    ]);
    assert.equal(one.failure['@_message'], 'criteria below minimum');
    assert.equal(one['system-out'], undefined);
  });

  it('JUnit: a passed multi-turn case still lists its per-turn scores', () => {
    const passed: CaseResultJson = { ...threeOfFourTurns(), status: 'passed' };
    const [testcase] = testcases(renderJunit('smoke', run, [passed]));
    assert.equal(testcase.failure, undefined);
    assert.equal(testcase['system-out'].split('\n').length, 4);
  });

  it('JUnit: writes a one-turn run exactly as before turns existed', () => {
    const passed: CaseResultJson = { ...oneTurnResult(), case_id: 'case-ok', case_name: 'ok', status: 'passed' };
    assert.equal(
      renderJunit('smoke', run, [oneTurnResult(), passed]),
      [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<testsuites name="assay" tests="2" failures="1" errors="0">',
        '  <testsuite name="smoke" id="run-1" tests="2" failures="1" errors="0">',
        '    <testcase name="where is my order" classname="smoke">',
        `      <failure message="criteria below minimum">where is my order › ${MATCH}: 0.00 &#60; 0.80`,
        '    {&#34;justifications&#34;:[&#34;wrong day&#34;]}</failure>',
        '    </testcase>',
        '    <testcase name="ok" classname="smoke"></testcase>',
        '  </testsuite>',
        '</testsuites>',
        '',
      ].join('\n'),
    );
  });

  it('JUnit: a skipped case is <skipped> with its reason and counted on the suite', () => {
    const skipped: CaseResultJson = {
      ...oneTurnResult(),
      status: 'skipped',
      criteria: {},
      skip_reason: 'needs a user simulator',
    };
    const xml = renderJunit('smoke', run, [skipped]);
    assert.match(xml, /<testsuite name="smoke" id="run-1" tests="1" failures="0" errors="0" skipped="1">/);
    assert.equal(testcases(xml)[0].skipped['@_message'], 'needs a user simulator');
  });
});

describe('agent:eval comparison of multi-turn cases', () => {
  const entry = (first?: CaseComparisonJson['first_failed_turn']): CaseComparisonJson => ({
    case_id: 'c1',
    case_name: 'cancel an order',
    transition: 'regressed',
    status: 'failed',
    baseline_status: 'passed',
    criteria: { [TRAJ]: { run: 0.5, baseline: 1, delta: -0.5 } },
    ...(first ? { first_failed_turn: first } : {}),
  });

  it('says which turn failed first in the baseline and in the run', () => {
    assert.equal(
      caseChange(entry({ run: 1, baseline: null })),
      `cancel an order: passed → failed; first failed turn none → turn 1; ${TRAJ} 1.00 → 0.50 (-0.50)`,
    );
  });

  it('prints a one-turn case as before', () => {
    assert.equal(caseChange(entry()), `cancel an order: passed → failed; ${TRAJ} 1.00 → 0.50 (-0.50)`);
  });
});
