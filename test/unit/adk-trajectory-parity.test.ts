import assert from 'node:assert/strict';
import type { ToolCall } from '../../domain/trajectory/tool-call';
import { scoreTrajectory } from '../../domain/trajectory/trajectory';
import {
  ADK_PYTHON,
  adkTrajectoryVerdicts,
  adkValidateEvalSet,
  adkVenvExists,
  type AdkCall,
} from '../helpers/adk-oracle';
import { trajectoryPairs } from '../helpers/trajectory-pairs';

// ADK's match types and Assay's modes of the same rule; `lcs` (partial credit) has no ADK counterpart.
const ADK_MATCH_TYPES = { exact: 'EXACT', in_order: 'IN_ORDER', any_order: 'ANY_ORDER' } as const;
type ParityMode = keyof typeof ADK_MATCH_TYPES;
const MODES = Object.keys(ADK_MATCH_TYPES) as ParityMode[];
// The generator (test/helpers/trajectory-pairs.ts) leaves out value-space differences, not rule ones: 0 and 1
// (Python holds `True == 1`; with them a seed now and then disagrees on `{"n": true}` against `{"n": 1.0}`), integers
// beyond 2^53, and `$` keys (Assay's matchers). `2`, `2.0`, `2e0` and `\u00e9` escapes stay in: equal on both sides.
const SEED = 22;
const PAIRS = 400;

const toolCalls = (calls: readonly AdkCall[]): ToolCall[] =>
  calls.map((call) => ({ tool_name: call.name, tool_args: JSON.parse(call.argsText) as Record<string, unknown> }));

const MINIMAL_EVAL_SET = {
  eval_set_id: 'minimal',
  eval_cases: [{ eval_id: 'hello', conversation: [{ user_content: { role: 'user', parts: [{ text: 'Hello' }] } }] }],
};

describe('ADK parity', () => {
  before(() => assert.ok(adkVenvExists(), `${ADK_PYTHON} is missing: \`bash scripts/provision.sh test\` installs it`));

  it("passes at minimum 1.0 exactly the pairs ADK's TrajectoryEvaluator passes, in exact, in_order and any_order", async () => {
    const asked = trajectoryPairs(SEED, PAIRS).flatMap((pair) => MODES.map((mode) => ({ ...pair, mode })));
    const adk = await adkTrajectoryVerdicts(
      asked.map(({ expected, actual, mode }) => ({ expected, actual, match_type: ADK_MATCH_TYPES[mode] })),
    );
    const passes = Object.fromEntries(MODES.map((mode) => [mode, 0]));
    const disagreements = asked.flatMap((pair, k) => {
      const assay = scoreTrajectory({
        expected: toolCalls(pair.expected),
        actual: toolCalls(pair.actual),
        minScore: 1,
        mode: pair.mode,
      });
      if (adk[k].passed) passes[pair.mode]++;
      return assay.passed === adk[k].passed
        ? []
        : [JSON.stringify({ ...pair, assay: { score: assay.score, passed: assay.passed }, adk: adk[k] })];
    });
    assert.equal(
      disagreements.length,
      0,
      `seed ${SEED}: ${disagreements.length} of ${asked.length} verdicts differ, for instance\n${disagreements.slice(0, 5).join('\n')}`,
    );
    // Both verdicts must be common in every mode, or the comparison says little.
    for (const mode of MODES)
      assert.ok(passes[mode] > PAIRS / 10 && passes[mode] < PAIRS * 0.9, `${mode}: ${passes[mode]}`);
  });

  it('has ADK load a minimal EvalSet and dump it snake_case', async () => {
    const check = await adkValidateEvalSet(JSON.stringify(MINIMAL_EVAL_SET));
    assert.ok(check.ok, JSON.stringify(check));
    assert.deepEqual(check.dumped, {
      eval_set_id: 'minimal',
      creation_timestamp: 0,
      eval_cases: [
        {
          eval_id: 'hello',
          conversation: [
            { invocation_id: '', user_content: { role: 'user', parts: [{ text: 'Hello' }] }, creation_timestamp: 0 },
          ],
          creation_timestamp: 0,
          final_session_state: {},
        },
      ],
    });
  });

  it('has ADK refuse an EvalSet whose case has no conversation, or a field its model does not know', async () => {
    const [noConversation] = MINIMAL_EVAL_SET.eval_cases;
    // ADK 2.x keeps unknown keys of a case (`extra="allow"`); an invocation still refuses them.
    const [turn] = noConversation.conversation;
    const refusals = [
      { ...MINIMAL_EVAL_SET, eval_cases: [{ eval_id: noConversation.eval_id }] },
      {
        ...MINIMAL_EVAL_SET,
        eval_cases: [{ ...noConversation, conversation: [{ ...turn, expected_trajectory: [] }] }],
      },
    ];
    const [missing, unknown] = await Promise.all(refusals.map((set) => adkValidateEvalSet(JSON.stringify(set))));
    assert.equal(missing.ok, false);
    assert.match(!missing.ok ? missing.error : '', /Exactly one of conversation and conversation_scenario/);
    assert.equal(unknown.ok, false);
    assert.match(!unknown.ok ? unknown.error : '', /expected_trajectory\s+Extra inputs are not permitted/);
  });
});
