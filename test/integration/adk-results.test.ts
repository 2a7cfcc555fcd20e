import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { LIMITS } from '../../domain/limits';
import { runAssay, servedApi, type ServedPlatform } from '../helpers/assay-cli';
import { writeAdkResults, type AdkResultFiles } from '../helpers/adk-results';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { postJsonText } from '../helpers/post-json-text';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import type { Tenant } from '../helpers/tenants';

const AGENT = 'shop-bot';
const setPath = `/api/ai-agents/${AGENT}/eval-sets/shop`;
const REQUEST = JSON.parse(
  fs.readFileSync(path.join(__dirname, '..', 'fixtures', 'adk-results', 'shop.request.json'), 'utf8'),
) as { eval_set: unknown };
const CASE_STATUS: Record<string, string> = { PASSED: 'passed', FAILED: 'failed', NOT_EVALUATED: 'skipped' };
const CRITERION: Record<string, string> = {
  tool_trajectory_avg_score: 'tool_trajectory_avg_score',
  response_match_score: 'response_match_score',
};

describe('ADK eval results in: an *.evalset_result.json of either encoding becomes a completed run', function () {
  this.timeout(300_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let served: ServedPlatform;
  let files: AdkResultFiles;

  const post = (url: string, text: string, status: number) =>
    postJsonText(platform.app, tenant.auth, url, text, status);
  // Each case's verdicts in ADK's terms: the run's status per case, each criterion's passed or not.
  const verdictsOf = async (runId: string) => {
    const rows = (await api.send('get', `/api/ai-agents/${AGENT}/eval-runs/${runId}/results?limit=100`, 200)).data;
    return Object.fromEntries(
      rows.map((row: { case_name: string; status: string; criteria: Record<string, { passed: boolean }> }) => [
        row.case_name,
        {
          status: row.status,
          criteria: Object.fromEntries(Object.entries(row.criteria).map(([k, v]) => [k, v.passed])),
        },
      ]),
    );
  };
  const adkVerdicts = () =>
    Object.fromEntries(
      Object.entries(files.verdicts).map(([id, verdict]) => [
        id,
        {
          status: CASE_STATUS[verdict.final],
          criteria: Object.fromEntries(
            Object.entries(verdict.metrics)
              .filter(([metric]) => CRITERION[metric])
              .map(([metric, status]) => [CRITERION[metric], status !== 'FAILED']),
          ),
        },
      ]),
    );

  before(async () => {
    const h = await harness();
    served = await servedApi(await createTestPlatform(h), 'owner', AGENT);
    ({ platform, tenant, api } = served);
    files = writeAdkResults(REQUEST, fs.mkdtempSync(path.join(h.tmpDir, 'adk-results-')));
    await api.evalSet(AGENT, { name: 'shop' });
    await post(`${setPath}/cases/import`, JSON.stringify(REQUEST.eval_set), 200);
  });
  after(async () => served?.close());

  it("turns ADK's current file (the document) and ADK 1.x's (a JSON string of it) into runs with ADK's verdicts", async () => {
    assert.deepEqual(
      Object.values(files.verdicts).map((v) => v.final),
      ['PASSED', 'FAILED', 'FAILED'],
      'the fixture has both verdicts',
    );
    assert.equal(typeof JSON.parse(fs.readFileSync(files.legacy, 'utf8')), 'string', 'the old encoding');
    for (const file of [files.current, files.legacy]) {
      const imported = (await post(`${setPath}/adk-results`, fs.readFileSync(file, 'utf8'), 201)).data;
      assert.equal(imported.run.status, 'completed');
      assert.deepEqual(imported.run.tags, ['adk-eval']);
      assert.deepEqual(imported.run.summary.counts, { total: 3, passed: 1, failed: 2, error: 0 });
      assert.deepEqual(await verdictsOf(imported.run.id), adkVerdicts(), file);
      assert.deepEqual(
        imported.unsupported.map((u: { criterion: string }) => u.criterion),
        ['tool_call_count_v1'],
      );
      assert.equal(imported.run.min_scores.response_match_score, 0.6, "ADK's threshold");
    }
  });

  it('names the field of a bad result or a case the set has not, refuses a body over adkResultBytes; no run', async () => {
    const before = (await api.send('get', `${setPath}/runs`, 200)).data.length;
    const doc = JSON.parse(fs.readFileSync(files.current, 'utf8'));
    doc.eval_case_results[1].eval_id = 'nowhere';
    const unknown = await post(`${setPath}/adk-results`, JSON.stringify(doc), 422);
    assert.deepEqual(
      unknown.error.details.map((d: { field: string }) => d.field),
      ['eval_case_results[1].eval_id'],
    );
    doc.eval_case_results[0].final_eval_status = 9;
    const bad = await post(`${setPath}/adk-results`, JSON.stringify(JSON.stringify(doc)), 422);
    assert.deepEqual(
      bad.error.details.map((d: { field: string }) => d.field),
      ['eval_case_results[0].final_eval_status'],
    );
    const large = await post(`${setPath}/adk-results`, ' '.repeat(LIMITS.adkResultBytes + 1), 413);
    assert.equal(large.error.details[0].limit, 'adkResultBytes');
    assert.equal((await api.send('get', `${setPath}/runs`, 200)).data.length, before);
  });

  it('is audited as the action of an eval-runs resource', async () => {
    const action = encodeURIComponent('POST /api/ai-agents/:agent/eval-sets/:set/adk-results');
    const entries = (await api.send('get', `/api/workspaces/current/audit?action=${action}`, 200)).data;
    assert.deepEqual(
      entries.map((e: { resource_type: string; status: number }) => [e.resource_type, e.status]).sort(),
      [
        ['eval-runs', 201],
        ['eval-runs', 201],
        ['eval-runs', 413],
        ['eval-runs', 422],
        ['eval-runs', 422],
      ],
    );
  });

  it('imports via the CLI: assay eval-set import-results', async () => {
    const result = await runAssay(['eval-set', 'import-results', AGENT, 'shop', files.legacy], served.env);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^imported shop_shop-set_[\d.]+ as run [0-9a-f-]+: 1 passed, 2 failed of 3$/m);
    assert.match(result.stdout, /^unsupported: tool_call_count_v1: informational in ADK/m);
  });
});
