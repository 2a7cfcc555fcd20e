import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileSetSettings } from '../../domain/eval/eval-set-file.reader';
import { runAssay, servedApi, type CliResult, type ServedPlatform } from '../helpers/assay-cli';
import {
  ADK_FIXTURES_DIR,
  ADK_SET_FILES,
  adkRoundTrips,
  comparedDumps,
  expectedShape,
  fixtureJson,
  fixtureText,
  legacyNameOf,
} from '../helpers/adk-files';
import { adkBatch } from '../helpers/adk-oracle';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { postJsonText } from '../helpers/post-json-text';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import type { Tenant } from '../helpers/tenants';

const AGENT = 'adk-bot';
const setPath = (set: string): string => `/api/ai-agents/${AGENT}/eval-sets/${set}`;
const setOf = (i: number): string => `fixture-${i}`;

describe('ADK files in and out: every real fixture through the API and the CLI, configs', function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let served: ServedPlatform;
  let tmpDir: string;

  const post = (url: string, text: string, status: number) =>
    postJsonText(platform.app, tenant.auth, url, text, status);
  const casesOf = async (set: string): Promise<any[]> =>
    (await api.send('get', `${setPath(set)}/cases?limit=500`, 200)).data;
  // What a set holds, in the fixture's terms: each case's name and its turns (a scenario case has none).
  const shapeOf = async (set: string) =>
    (await casesOf(set))
      .map((c) => ({ name: c.name, turns: c.turns.length }))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
  const sortedShape = (file: string) => [...expectedShape(file)].sort((a, b) => (a.name < b.name ? -1 : 1));
  const assay = (args: string[]): Promise<CliResult> => runAssay(['eval-set', ...args], served.env);

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'adk-files-'));
    served = await servedApi(await createTestPlatform(h), 'owner', AGENT);
    ({ platform, tenant, api } = served);
  });
  after(async () => served?.close());

  it('imports every fixture whole via the API; its ADK export loads in ADK and round-trips equal', async () => {
    for (const [i, file] of ADK_SET_FILES.entries()) {
      // The set is made as the CLI makes it: with the file's description.
      const { description } = fileSetSettings(fixtureJson(file));
      await api.evalSet(AGENT, { name: setOf(i), ...(description ? { description } : {}) });
      const name = encodeURIComponent(legacyNameOf(file));
      const imported = await post(`${setPath(setOf(i))}/cases/import?legacy_name=${name}`, fixtureText(file), 200);
      assert.equal(imported.data.created, expectedShape(file).length, file);
      assert.deepEqual(await shapeOf(setOf(i)), sortedShape(file), file);
    }
    const exports = await Promise.all(
      ADK_SET_FILES.map(async (_, i) =>
        JSON.stringify(await api.send('get', `${setPath(setOf(i))}/export?format=adk`, 200)),
      ),
    );
    for (const trip of await adkRoundTrips(ADK_SET_FILES, exports)) {
      const { original, exported } = comparedDumps(trip);
      assert.deepEqual(exported, original, trip.file);
    }
    // Checked by hand: the invocation_events fixture keeps its call and the response joined to it by id.
    const weather = ADK_SET_FILES.indexOf('LiuYuWei-google_adk_evaluation_example/Weather_evaluation.evalset.json');
    const [taipei] = JSON.parse(exports[weather]).eval_cases;
    assert.deepEqual(taipei.conversation[0].intermediate_data, {
      tool_uses: [{ name: 'query_weather', args: { city_name: 'Taipei' } }],
      tool_responses: [{ name: 'query_weather', response: { result: 'The Taipei of the weather is: sunny.' } }],
    });
    assert.deepEqual(taipei.session_input, { app_name: 'weather_agent_en', user_id: 'user', state: {} });
  });

  it('names the ADK field of a bad case and stores nothing', async () => {
    await api.evalSet(AGENT, { name: 'bad' });
    const file = fixtureJson('google-adk-samples/inspire.test.json');
    delete file.eval_cases[0].conversation[1].user_content;
    const refused = await post(`${setPath('bad')}/cases/import`, JSON.stringify(file), 422);
    assert.deepEqual(
      refused.error.details.map((d: { field: string }) => d.field),
      ['eval_cases[0].conversation[1].user_content'],
    );
    assert.deepEqual(await casesOf('bad'), []);
  });

  it('imports placeholder tool calls ADK 2.x loads, noting each in the response and the CLI output', async () => {
    await api.evalSet(AGENT, { name: 'placeholders' });
    const file = fixtureJson('google-adk-python/simple_multi_turn_conversation.test.json');
    file.eval_cases[0].conversation[0].intermediate_data.tool_uses = [{ id: null, args: null, name: null }];
    const [adk] = await adkBatch([{ command: 'validate_eval_set', json: JSON.stringify(file) }]);
    assert.ok(adk.ok, adk.ok ? '' : adk.error);
    const imported = await post(`${setPath('placeholders')}/cases/import`, JSON.stringify(file), 200);
    const field = 'eval_cases[0].conversation[0].intermediate_data.tool_uses[0]';
    assert.deepEqual(
      imported.data.notes.map((n: { field: string }) => n.field),
      [field],
    );
    const [stored] = await casesOf('placeholders');
    assert.deepEqual(stored.turns[0].expected_trajectory, []);
    const local = path.join(tmpDir, 'placeholders.evalset.json');
    fs.writeFileSync(local, JSON.stringify(file));
    const cli = await assay(['import', AGENT, local, '--set', 'placeholders']);
    assert.equal(cli.code, 0, cli.stderr);
    assert.ok(cli.stdout.includes(`not imported: ${field}: a tool call without a name`), cli.stdout);
  });

  it('applies a config: min_scores, samples, match type and rubrics onto the set, unsupported criteria named', async () => {
    await api.evalSet(AGENT, { name: 'weather', min_scores: { rubric_based: 0.4 } });
    const weather = 'LiuYuWei-google_adk_evaluation_example/Weather_evaluation.evalset.json';
    await post(`${setPath('weather')}/cases/import`, fixtureText(weather), 200);
    const before = await casesOf('weather');

    const bad = await post(
      `${setPath('weather')}/adk-config`,
      '{"criteria":{"response_match_score":{"threshold":7}}}',
      422,
    );
    assert.deepEqual(
      bad.error.details.map((d: { field: string }) => d.field),
      ['criteria.response_match_score.threshold'],
    );
    assert.deepEqual(await casesOf('weather'), before, 'a refused config changes nothing');

    const config = fixtureText('LiuYuWei-google_adk_evaluation_example/test_config.json');
    const applied = (await post(`${setPath('weather')}/adk-config`, config, 200)).data;
    assert.deepEqual(applied.eval_set.min_scores, {
      tool_trajectory_avg_score: 1,
      final_response_match: 0.8,
      rubric_based: 0.8,
      response_match_score: 0,
      hallucinations: 0.8,
    });
    assert.equal(applied.eval_set.judge_samples, 5);
    assert.deepEqual(
      applied.unsupported.map((u: { criterion: string }) => u.criterion),
      [
        'final_response_match_v2.judge_model_options.judge_model',
        'rubric_based_final_response_quality_v1.judge_model_options.judge_model',
        'hallucinations_v1.evaluate_intermediate_nl_responses',
        'hallucinations_v1.judge_model_options.judge_model',
      ],
    );
    assert.match(applied.unsupported[2].reason, /final reply only/);
    const [taipei] = await casesOf('weather');
    assert.deepEqual(taipei.rubrics, [
      "The agent's response is direct and to the point.",
      "The agent's response accurately infers the user's underlying goal from ambiguous queries.",
    ]);
    assert.equal(taipei.trajectory_match, 'lcs', 'no match_type in this config');

    const anyOrder = fixtureText('msteiner-google-adk-samples/eval_config.json');
    const second = (await post(`${setPath('weather')}/adk-config`, anyOrder, 200)).data;
    assert.equal(second.trajectory_match, 'any_order');
    assert.deepEqual(
      (await casesOf('weather')).map((c) => c.trajectory_match),
      ['any_order'],
    );
    assert.deepEqual(second.eval_set.min_scores.response_match_score, 0, 'a criterion the config omits is kept');
    assert.equal(second.eval_set.min_scores.rubric_based_tool_use, 0.8);
    assert.deepEqual(
      second.unsupported.map((u: { criterion: string }) => u.criterion),
      ['final_response_match_v2.judge_model_options.judge_model'],
    );
    assert.match((await casesOf('weather'))[0].tool_use_rubrics[0], /^The agent must delegate the query/);

    const efficiency = '{"criteria":{"token_usage_v1":{"threshold":0.5}}}';
    const refused = await post(`${setPath('weather')}/adk-config`, efficiency, 422);
    assert.deepEqual(
      refused.error.details.map((d: { field: string }) => d.field),
      ['criteria.token_usage_v1'],
    );
    const scenario = fixtureText('google-adk-python/conversation_scenario-test_config.json');
    const third = (await post(`${setPath('weather')}/adk-config`, scenario, 200)).data;
    assert.deepEqual(third.unsupported, []);
    assert.deepEqual(third.eval_set.simulator, {
      model: 'gemini-2.5-flash',
      max_turns: 10,
      stop_signal: '</finished>',
    });
  });

  it('imports every fixture via the CLI, applies a config with --config and exports --format adk', async () => {
    for (const file of ADK_SET_FILES) {
      const set = `cli-${ADK_SET_FILES.indexOf(file)}`;
      const result = await assay(['import', AGENT, path.join(ADK_FIXTURES_DIR, file), '--set', set]);
      assert.equal(result.code, 0, `${file}: ${result.stderr}`);
      assert.match(result.stdout, new RegExp(`imported ${expectedShape(file).length} cases into ${set} \\(adk\\)`));
      assert.deepEqual(await shapeOf(set), sortedShape(file), file);
    }
    const old = 'google-adk-python/trip_inquiry.test.json';
    const named = await assay(['import', AGENT, path.join(ADK_FIXTURES_DIR, old)]);
    assert.equal(named.code, 0, named.stderr);
    assert.deepEqual(await shapeOf('trip_inquiry'), [{ name: 'trip_inquiry', turns: 2 }], 'named after the file');

    const file = 'google-adk-samples/basic.evalset.json';
    const config = path.join(ADK_FIXTURES_DIR, 'google-adk-python/conversation_scenario-test_config.json');
    const withConfig = await assay([
      'import',
      AGENT,
      path.join(ADK_FIXTURES_DIR, file),
      '--set',
      'cfg',
      '--config',
      config,
    ]);
    assert.equal(withConfig.code, 0, withConfig.stderr);
    assert.match(withConfig.stdout, /^applied .*"hallucinations":0\.8.*0 tool-use rubrics on every case/m);
    assert.doesNotMatch(withConfig.stdout, /^unsupported:/m, 'hallucinations_v1 and user_simulator_config are mapped');

    const out = path.join(tmpDir, 'cfg.evalset.json');
    const exported = await assay(['export', AGENT, 'cfg', '--format', 'adk', '--out', out]);
    assert.equal(exported.code, 0, exported.stderr);
    const [check] = await adkBatch([{ command: 'validate_eval_set', json: fs.readFileSync(out, 'utf8') }]);
    assert.ok(check.ok, check.ok ? '' : check.error);
    assert.deepEqual(
      (check.dumped.eval_cases as Array<{ eval_id: string }>).map((c) => c.eval_id),
      ['greeting', 'weather_query'],
    );
  });
});
