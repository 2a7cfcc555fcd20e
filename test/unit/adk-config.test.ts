import assert from 'node:assert/strict';
import { mapAdkConfig } from '../../domain/eval/adk-config';

const rubric = (id: string, text: string) => ({ rubricId: id, rubricContent: { textProperty: text } });

// A config in ADK 2.13's shape naming every criterion Assay has a counterpart for, and what it has none for.
const EVERY_CRITERION = {
  criteria: {
    tool_trajectory_avg_score: { threshold: 1, match_type: 'in-order', ignore_args: true },
    response_match_score: 0.6,
    final_response_match_v2: { threshold: 0.7, includeIntermediateResponsesInFinal: false },
    rubric_based_final_response_quality_v1: { threshold: 0.8, rubrics: [rubric('polite', 'The reply is polite.')] },
    hallucinations_v1: { threshold: 0.9, evaluate_intermediate_nl_responses: false },
    rubric_based_tool_use_quality_v1: {
      threshold: 0.75,
      judgeModelOptions: { numSamples: 3 },
      rubrics: [rubric('lookup', 'The agent looks the order up before refunding it.')],
    },
    multi_turn_task_success_v1: 0.65,
    multi_turn_trajectory_quality_v1: 0.5,
    my_metric: 0.5,
  },
  custom_metrics: { my_metric: { code_config: { name: 'metrics.mine' } }, unused: { code_config: { name: 'x.y' } } },
  userSimulatorConfig: { model: 'gpt-4o-mini', maxAllowedInvocations: 6, includeFunctionCalls: true },
};

describe('ADK eval config (domain)', function () {
  it('maps every criterion Assay has, the simulator settings too; names only what has no counterpart', () => {
    const mapped = mapAdkConfig(EVERY_CRITERION);
    assert.ok(!('problems' in mapped), JSON.stringify(mapped));
    assert.deepEqual(mapped.min_scores, {
      tool_trajectory_avg_score: 1,
      response_match_score: 0.6,
      final_response_match: 0.7,
      rubric_based: 0.8,
      hallucinations: 0.9,
      rubric_based_tool_use: 0.75,
      task_success: 0.65,
    });
    assert.equal(mapped.trajectory_match, 'in_order');
    assert.equal(mapped.judge_samples, 3);
    assert.deepEqual(mapped.rubrics, ['The reply is polite.']);
    assert.deepEqual(mapped.tool_use_rubrics, ['The agent looks the order up before refunding it.']);
    assert.deepEqual(mapped.simulator, { model: 'gpt-4o-mini', max_turns: 6 });
    assert.deepEqual(
      mapped.unsupported.map((u) => u.criterion),
      [
        'tool_trajectory_avg_score.ignore_args',
        'multi_turn_trajectory_quality_v1',
        'my_metric',
        'custom_metrics.unused',
        'user_simulator_config.include_function_calls',
      ],
    );
    assert.match(mapped.unsupported[2].reason, /custom metric .*runs no user code/);
  });

  it("reads match_type as ADK does: any case, '-' or ' ' for '_', or the enum's value 0/1/2", () => {
    const matchOf = (match_type: unknown) => {
      const mapped = mapAdkConfig({ criteria: { tool_trajectory_avg_score: { threshold: 1, match_type } } });
      return 'problems' in mapped ? mapped.problems.map((p) => p.field) : mapped.trajectory_match;
    };
    assert.deepEqual(['exact', 'In_Order', ' any order ', 'ANY-ORDER', 0, 1, 2].map(matchOf), [
      'exact',
      'in_order',
      'any_order',
      'any_order',
      'exact',
      'in_order',
      'any_order',
    ]);
    assert.deepEqual(matchOf(3), ['criteria.tool_trajectory_avg_score.match_type']);
    assert.deepEqual(matchOf('SOME'), ['criteria.tool_trajectory_avg_score.match_type']);
  });

  it('refuses an efficiency metric in criteria as ADK does, naming the field; names intermediate replies it cannot', () => {
    const refused = mapAdkConfig({
      criteria: { tool_trajectory_avg_score: 1, token_usage_v1: 0.5, tool_call_count_v1: 0 },
    });
    assert.ok('problems' in refused);
    assert.deepEqual(
      refused.problems.map((p) => p.field),
      ['criteria.token_usage_v1', 'criteria.tool_call_count_v1'],
    );
    assert.match(refused.problems[0].message, /does not support a threshold/);
    const intermediate = mapAdkConfig({
      criteria: { final_response_match_v2: { threshold: 0.5, include_intermediate_responses_in_final: true } },
    });
    assert.ok(!('problems' in intermediate));
    assert.deepEqual(
      intermediate.unsupported.map((u) => u.criterion),
      ['final_response_match_v2.include_intermediate_responses_in_final'],
    );
  });

  it('caps max_allowed_invocations at turnsPerScenario, naming it; another simulator type is named whole', () => {
    const uncapped = mapAdkConfig({ criteria: {}, user_simulator_config: { max_allowed_invocations: -1 } });
    assert.ok(!('problems' in uncapped));
    assert.deepEqual(uncapped.simulator, { max_turns: 20 });
    assert.deepEqual(
      uncapped.unsupported.map((u) => u.criterion),
      ['user_simulator_config.max_allowed_invocations'],
    );
    const other = mapAdkConfig({ criteria: {}, user_simulator_config: { type: 'scripted', model: 'm' } });
    assert.ok(!('problems' in other));
    assert.deepEqual(other.simulator, {});
    assert.deepEqual(
      other.unsupported.map((u) => u.criterion),
      ['user_simulator_config'],
    );
  });
});
