import assert from 'node:assert/strict';
import { mapAdkConfig } from '../../domain/eval/adk-config';
import { toAdkEvalSet } from '../../domain/eval/adk-export';
import { readEvalSetJson, type ImportCase, type ImportRead } from '../../domain/eval/eval-set-file.reader';
import {
  ADK_SET_FILES,
  adkRoundTrips,
  comparedDumps,
  expectedShape,
  fixtureJson,
  legacyNameOf,
} from '../helpers/adk-files';

const casesOf = (read: ImportRead): ImportCase[] => {
  assert.ok('cases' in read, JSON.stringify(read));
  return read.cases.map((c) => c.fields);
};
const readFixture = (file: string): ImportCase[] =>
  casesOf(readEvalSetJson(fixtureJson(file), { legacyName: legacyNameOf(file) }));
const turnCount = (c: ImportCase): number => (c.turns ? c.turns.length : c.conversation_scenario ? 0 : 1);
const problemsOf = (value: unknown): Array<{ field: string; message: string }> => {
  const read = readEvalSetJson(value);
  assert.ok('problems' in read, JSON.stringify(read));
  return read.problems;
};

describe('ADK files (domain)', function () {
  this.timeout(60_000);

  it('reads every real ADK file whole: every case, every invocation a turn', () => {
    for (const file of ADK_SET_FILES) {
      const got = readFixture(file).map((c) => ({ name: c.name, turns: turnCount(c) }));
      assert.deepEqual(got, expectedShape(file), file);
    }
  });

  it('maps invocation_events: calls to the trajectory, responses joined by id to expected_tool_responses', () => {
    const [taipei] = readFixture('LiuYuWei-google_adk_evaluation_example/Weather_evaluation.evalset.json');
    assert.deepEqual(taipei.turns, [
      {
        user_message: 'Taipei',
        expected_trajectory: [{ tool_name: 'query_weather', tool_args: { city_name: 'Taipei' } }],
        expected_tool_responses: [
          { tool_name: 'query_weather', response: { result: 'The Taipei of the weather is: sunny.' } },
        ],
        expected_response: 'The weather in Taipei is sunny.',
      },
    ]);
    assert.deepEqual(taipei.session_input, { message: 'Taipei', app_name: 'weather_agent_en', user_id: 'user' });
  });

  it('maps per-invocation rubrics to the turn, session_input.state to state, camelCase like snake_case', () => {
    const [greeting] = readFixture('google-adk-samples/basic.evalset.json');
    assert.equal(greeting.turns?.[0].rubrics?.length, 2);
    assert.match(greeting.turns?.[0].rubrics?.[1] ?? '', /^The response does NOT invoke any tool/);
    assert.deepEqual(greeting.turns?.[0].expected_trajectory, []);
    assert.deepEqual(greeting.state, {});
    assert.equal(greeting.rubrics, null, 'no case-level rubric');
    const [add] = readFixture('trpc-group-trpc-agent-go/math-basic.evalset.json');
    assert.equal(add.name, 'calc_add');
    assert.equal(add.session_input.app_name, 'math-eval-app');
    assert.ok(add.expected_final_response, 'finalResponse read');
    const [inspire] = readFixture('google-adk-samples/inspire.test.json');
    assert.equal(inspire.turns?.length, 3);
    assert.equal((inspire.state?.user_profile as { seat_preference: string }).seat_preference, 'window');
    assert.deepEqual(inspire.turns?.[1].expected_trajectory, [
      { tool_name: 'poi_agent', tool_args: { request: 'Peru' } },
      { tool_name: 'map_tool', tool_args: { key: 'poi' } },
    ]);
  });

  it('stores a conversation_scenario whole, and reads final_session_state and a null final response text', () => {
    const [scenario, scripted] = readFixture('google-adk-python/live_non_blocking_tool_agent.evalset.json');
    assert.equal(scenario.conversation_scenario?.user_persona, 'NOVICE');
    assert.equal(scenario.session_input.message, 'Hi, can you kick off a long background task for me?');
    assert.equal(scenario.turns, undefined);
    assert.deepEqual(
      scripted.turns?.map((t) => Object.keys(t)),
      [['user_message'], ['user_message']],
    );
    const artemis = readFixture('Artemis-Thunder-emergency-response-agent/eval_set.json');
    assert.ok(artemis.every((c) => c.final_state && Object.keys(c.final_state).length === 0));
    const [elicitation] = readFixture('google-adk-python/elicitation_flow.test.json');
    assert.equal(
      elicitation.turns?.some((t) => 'expected_response' in t),
      true,
    );
    assert.equal(elicitation.turns?.filter((t) => 'expected_response' in t).length, 1, 'the null text is no reply');
  });

  it("converts the old lists as ADK's migration does: one case of N turns; adk web items with initial_state", () => {
    const [trip] = readFixture('google-adk-python/trip_inquiry.test.json');
    assert.equal(trip.name, 'trip_inquiry');
    assert.deepEqual(trip.turns?.[1].expected_trajectory, [
      { tool_name: 'transfer_to_agent', tool_args: { agent_name: 'indentify_agent' } },
    ]);
    assert.deepEqual(trip.turns?.[0].expected_trajectory, []);
    const [shopping] = readFixture('google-adk-samples/eval_data1.evalset.json');
    assert.equal(shopping.name, 'eval_data_set_google_shopping');
    assert.equal(shopping.turns?.length, 6);
    assert.deepEqual(shopping.state, { session: {} });
    const read = readEvalSetJson([{ query: 'hi' }, { reference: 'no query' }]);
    assert.ok('problems' in read);
  });

  it('names the ADK field of bad input, every case at once', () => {
    const turn = (text: unknown) => ({ user_content: { parts: [{ text }] } });
    const problems = problemsOf({
      eval_set_id: 'bad',
      eval_cases: [
        { eval_id: 'ok', conversation: [turn('a'), turn('b')] },
        { eval_id: 'blank', conversation: [turn('a'), turn(' ')] },
        { eval_id: 'missing', conversation: [turn('a'), { final_response: { parts: [] } }] },
        {
          eval_id: 'both',
          conversation: [turn('a')],
          conversation_scenario: { starting_prompt: 'x', conversation_plan: 'p' },
        },
        { eval_id: 'none' },
        { eval_id: 'no prompt', conversation_scenario: { conversation_plan: 'p' } },
      ],
    });
    assert.deepEqual(
      problems.map((p) => p.field),
      [
        'eval_cases[1].conversation[1].user_content',
        'eval_cases[2].conversation[1].user_content',
        'eval_cases[3].conversation_scenario',
        'eval_cases[4].conversation',
        'eval_cases[5].conversation_scenario.starting_prompt',
      ],
    );
    assert.match(problems[0].message, /^turns\[1\]\.user_message: must not be empty/);
    const legacy = problemsOf([{ query: 'a' }, { query: 3 }]);
    assert.deepEqual(
      legacy.map((p) => p.field),
      ['[1].query'],
    );
    // Problems found after ADK's conversion are named by the old list's own fields.
    const blank = problemsOf([{ query: 'a', expected_tool_use: [{ tool_name: '', tool_input: {} }] }, { query: ' ' }]);
    assert.deepEqual(
      blank.map((p) => p.field),
      ['[0].expected_tool_use[0].tool_name', '[1].query'],
    );
    const web = problemsOf([
      { name: 'ok', data: [{ query: 'a' }] },
      { name: ' ', data: [{ query: 'a' }, { query: '' }], initial_state: { big: 'x'.repeat(40_000) } },
    ]);
    assert.deepEqual(
      web.map((p) => p.field),
      ['[1].name', '[1].data[1].query', '[1].initial_state'],
    );
  });

  it('exports what ADK loads, and ADK → Assay → ADK keeps every invocation, tool use, response, rubric and state', async () => {
    const exports = ADK_SET_FILES.map((file) => {
      const read = readEvalSetJson(fixtureJson(file), { legacyName: legacyNameOf(file) });
      return JSON.stringify(
        toAdkEvalSet({ name: 'set', description: ('set' in read && read.set.description) || '' }, casesOf(read)),
      );
    });
    for (const trip of await adkRoundTrips(ADK_SET_FILES, exports)) {
      const { original, exported } = comparedDumps(trip);
      assert.deepEqual(exported, original, trip.file);
    }
  });

  it('maps every config: thresholds, match type, samples, rubrics; names what Assay has not', () => {
    const mapped = (file: string) => mapAdkConfig(fixtureJson(file));
    const rubricTexts = (name: string): string[] =>
      fixtureJson('msteiner-google-adk-samples/eval_config.json').criteria[name].rubrics.map(
        (r: { rubric_content: { text_property: string } }) => r.rubric_content.text_property,
      );
    assert.deepEqual(mapped('google-adk-python/hello_world_agent-test_config.json'), {
      min_scores: { tool_trajectory_avg_score: 1, response_match_score: 0.5 },
      rubrics: [],
      tool_use_rubrics: [],
      unsupported: [],
    });
    assert.deepEqual(mapped('msteiner-google-adk-samples/eval_config.json'), {
      min_scores: {
        final_response_match: 0.8,
        tool_trajectory_avg_score: 1,
        rubric_based: 0.8,
        rubric_based_tool_use: 0.8,
      },
      trajectory_match: 'any_order',
      rubrics: rubricTexts('rubric_based_final_response_quality_v1'),
      tool_use_rubrics: rubricTexts('rubric_based_tool_use_quality_v1'),
      unsupported: [
        {
          criterion: 'final_response_match_v2.judge_model_options.judge_model',
          reason: "Assay judges with the workspace's judge model",
        },
      ],
    });
    const liu = mapped('LiuYuWei-google_adk_evaluation_example/test_config.json');
    assert.ok(!('problems' in liu));
    assert.equal(liu.judge_samples, 5, 'the most samples any criterion asks');
    assert.deepEqual(liu.min_scores, {
      tool_trajectory_avg_score: 1,
      response_match_score: 0,
      final_response_match: 0.8,
      rubric_based: 0.8,
      hallucinations: 0.8,
    });
    assert.deepEqual(
      liu.unsupported.map((u) => u.criterion),
      [
        'final_response_match_v2.judge_model_options.judge_model',
        'rubric_based_final_response_quality_v1.judge_model_options.judge_model',
        'hallucinations_v1.evaluate_intermediate_nl_responses',
        'hallucinations_v1.judge_model_options.judge_model',
      ],
    );
    const camel = mapped('google-adk-samples/eval_config.json');
    assert.ok(!('problems' in camel));
    assert.deepEqual(camel.rubrics.length, 2);
    assert.deepEqual(camel.judge_samples, 1);
    assert.deepEqual(
      camel.unsupported.map((u) => u.criterion),
      [
        'rubric_based_final_response_quality_v1.include_intermediate_responses_in_final',
        'rubric_based_final_response_quality_v1.judge_model_options.judge_model',
      ],
    );
    const scenario = mapped('google-adk-python/conversation_scenario-test_config.json');
    assert.ok(!('problems' in scenario));
    assert.deepEqual(scenario.unsupported, []);
    assert.deepEqual(scenario.min_scores, { hallucinations: 0.8 });
    assert.deepEqual(scenario.simulator, { model: 'gemini-2.5-flash', max_turns: 10 });
  });

  it('refuses a bad config naming the field', () => {
    const bad = mapAdkConfig({ criteria: { tool_trajectory_avg_score: { threshold: 2, match_type: 'SOME' } } });
    assert.ok('problems' in bad);
    assert.deepEqual(bad.problems.map((p) => p.field).sort(), [
      'criteria.tool_trajectory_avg_score.match_type',
      'criteria.tool_trajectory_avg_score.threshold',
    ]);
  });
});
