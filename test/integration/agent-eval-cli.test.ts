import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { listen } from '../../cli/http-server';
import { evalApi, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { createTenant, type Tenant } from '../helpers/tenants';

interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('assay agent:eval (the CI gate)', function () {
  this.timeout(180_000);
  let platform: TestPlatform;
  let llm: ScriptedLlm;
  let tenant: Tenant;
  let apiUrl: string;
  let closeHttp: () => Promise<void>;
  let tmpDir: string;

  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    new Promise((resolve) => {
      const child = spawn(process.execPath, ['bin/assay.js', 'agent:eval', ...args], {
        env: { ...process.env, ASSAY_URL: apiUrl, ASSAY_TOKEN: tenant.token, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      child.on('exit', (code) => resolve({ code, stdout, stderr }));
    });

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'cli-'));
    llm = await startScriptedLlm(judgeReplies({ rubric: (rubric) => !rubric.includes('apologizes') }));
    platform = await createTestPlatform(h, { env: { EGRESS_ALLOWLIST: '127.0.0.1' } });
    await platform.startWorker();
    const http = await listen(platform.app, '127.0.0.1', 0);
    closeHttp = http.close;
    apiUrl = `http://127.0.0.1:${(http.server.address() as { port: number }).port}`;
    tenant = await createTenant(platform.runtime.db, 'admin');
    const api = evalApi(platform.app, tenant);
    await api.agent('cli-bot', 'gpt-4o');
    await api.connect('openai', 'sk-cli-test-key', llm.baseUrl);
    const set = await api.evalSet('cli-bot', { name: 'smoke' });
    const shipped = await api.importRun('cli-bot', {
      session_input: { message: 'Where is order 1?' },
      tool_calls: [{ tool_name: 'lookup_order', tool_args: { id: 1 } }],
      final_response: 'Your order shipped.',
    });
    await api.promote('cli-bot', shipped.id, set.id, 'order status');
    const refunded = await api.importRun('cli-bot', {
      session_input: { message: 'Cancel order 2' },
      tool_calls: [
        { tool_name: 'lookup_order', tool_args: { id: 2 } },
        { tool_name: 'refund', tool_args: { id: 2 } },
      ],
      final_response: 'Refund issued.',
    });
    const cancel = await api.promote('cli-bot', refunded.id, set.id, 'cancellation');
    await api.send('patch', `/api/ai-agents/cli-bot/eval-sets/smoke/cases/${cancel.id}`, 200, {
      expected_trajectory: [
        { tool_name: 'lookup_order', tool_args: { id: 2 } },
        { tool_name: 'cancel_order', tool_args: { id: 2 } },
      ],
      rubrics: ['The reply apologizes for the trouble'],
    });
  });
  after(async () => {
    await closeHttp?.();
    await platform?.close();
    await llm?.close();
  });

  it('exits 0 when the pass rate reaches --min-pass-rate and writes a JUnit file with one testcase per case', async () => {
    const junit = path.join(tmpDir, 'report.xml');
    const json = path.join(tmpDir, 'report.json');
    const result = await cli(['cli-bot', 'smoke', '--min-pass-rate=0.5', '--junit', junit, '--json', json]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /order status\s*│\s*PASSED/);
    assert.match(result.stdout, /cancellation\s*│\s*FAILED/);
    assert.match(result.stdout, /0\.50 FAIL \(min 1\.00\)/, 'the trajectory column shows the partial score');
    assert.match(result.stdout, /pass rate 0\.50 \(minimum 0\.50\)/);
    const xml = fs.readFileSync(junit, 'utf8');
    assert.equal(XMLValidator.validate(xml), true);
    const suite = new XMLParser({ ignoreAttributes: false, isArray: (name) => name === 'testcase' }).parse(xml)
      .testsuites.testsuite;
    assert.deepEqual(suite.testcase.map((c: { '@_name': string }) => c['@_name']).sort(), [
      'cancellation',
      'order status',
    ]);
    assert.equal(suite['@_failures'], '1');
    assert.ok(suite.testcase.find((c: { '@_name': string }) => c['@_name'] === 'cancellation').failure);
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.equal(report.run.summary.pass_rate, 0.5);
    assert.equal(report.results.length, 2);
  });

  it('exits 1 below the default minimum of 1.0 and --detailed explains every failed criterion', async () => {
    const result = await cli(['cli-bot', 'smoke', '--detailed']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stdout, /cancellation › tool_trajectory_avg_score: 0\.50 < 1\.00/);
    assert.match(result.stdout, /missing: cancel_order\(\{"id":2\}\)/);
    assert.match(result.stdout, /extra: refund\(\{"id":2\}\)/);
    assert.match(result.stdout, /cancellation › rubric_based: 0\.00 < 0\.70/);
    assert.match(result.stdout, /rejected: "The reply apologizes for the trouble" — misses: The reply apologizes/);
    assert.doesNotMatch(result.stdout, /order status ›/, 'passing cases print no detail');
    assert.match(result.stdout, /FAILED: pass rate 0\.50 is below 1\.00/);
  });

  it('exits 2 for an unknown eval set, a bad token and an invalid --min-pass-rate', async () => {
    const unknown = await cli(['cli-bot', 'no-such-set']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /eval set not found/);
    const badToken = await cli(['cli-bot', 'smoke'], { ASSAY_TOKEN: 'assay_not-a-token' });
    assert.equal(badToken.code, 2);
    assert.match(badToken.stderr, /unknown token/);
    const badMin = await cli(['cli-bot', 'smoke', '--min-pass-rate=abc']);
    assert.equal(badMin.code, 2);
    assert.match(badMin.stderr, /--min-pass-rate/);
  });
});
