import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { listen } from '../../cli/http-server';
import { runAssay, type CliResult } from '../helpers/assay-cli';
import { ADK_FIXTURE } from '../helpers/adk-fixture';
import { evalApi } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

const AGENT = 'cli-files';

describe('assay eval-set export / import', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  let api: ReturnType<typeof evalApi>;
  let apiUrl: string;
  let closeHttp: () => Promise<void>;
  let tmpDir: string;

  const assay = (args: string[]): Promise<CliResult> =>
    runAssay(['eval-set', ...args], { ASSAY_URL: apiUrl, ASSAY_TOKEN: tenant.token });
  const ok = async (args: string[]): Promise<CliResult> => {
    const result = await assay(args);
    assert.equal(result.code, 0, `assay eval-set ${args.join(' ')}: ${result.stderr}`);
    return result;
  };
  const tmp = (name: string, content?: string): string => {
    const file = path.join(tmpDir, name);
    if (content !== undefined) fs.writeFileSync(file, content);
    return file;
  };
  const readJson = (file: string): any => JSON.parse(fs.readFileSync(file, 'utf8'));

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'eval-set-cli-'));
    platform = await createTestPlatform(h);
    const http = await listen(platform.app, '127.0.0.1', 0);
    closeHttp = http.close;
    apiUrl = `http://127.0.0.1:${(http.server.address() as { port: number }).port}`;
    tenant = await createTenant(platform.runtime.db, 'builder');
    api = evalApi(platform.app, tenant);
    await api.agent(AGENT, 'gpt-4o');
    await api.evalSet(AGENT, {
      name: 'origin',
      description: 'cases kept beside the code',
      min_scores: { rubric_based: 0.5 },
      judge_samples: 2,
    });
    await api.addCase(AGENT, 'origin', {
      name: 'lookup',
      session_input: { message: 'Where is order 3?', channel: 'email' },
      expected_trajectory: [{ tool_name: 'lookup_order', tool_args: { id: 3, fields: ['status'] } }],
      expected_final_response: 'Order 3 is on its way.',
      rubrics: ['Gives a date'],
    });
    await api.addCase(AGENT, 'origin', { name: 'hello', session_input: { message: 'Hello' } });
  });
  after(async () => {
    await closeHttp?.();
    await platform?.close();
  });

  it('round-trips: export to a file, import into a new set it creates, export again gives the same file', async () => {
    const exported = tmp('origin.json');
    const out = await ok(['export', AGENT, 'origin', '--out', exported]);
    assert.match(out.stderr, /exported 2 cases of origin/);
    const file = readJson(exported);
    assert.deepEqual(
      file.cases.map((c: { name: string }) => c.name),
      ['hello', 'lookup'],
    );

    const imported = await ok(['import', AGENT, exported, '--set', 'copy']);
    assert.match(imported.stderr, /created eval set copy/);
    assert.match(imported.stdout, /imported 2 cases into copy \(assay\): 2 created, 0 updated, 0 unchanged/);
    const again = await ok(['export', AGENT, 'copy']);
    assert.deepEqual(JSON.parse(again.stdout), { ...file, name: 'copy' });

    const twice = await ok(['import', AGENT, exported, '--set', 'copy']);
    assert.equal(twice.stdout, 'nothing changed: all 2 cases of copy are unchanged\n');
  });

  it('imports an ADK file into the set it names, multi-turn case included; a bad invocation exits 2', async () => {
    const adk = readJson(ADK_FIXTURE);
    adk.eval_cases[3].conversation[1].user_content = { parts: [] };
    const refused = await assay(['import', AGENT, tmp('support.evalset.json', JSON.stringify(adk))]);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /eval_cases\[3\]\.conversation\[1\]\.user_content: turns\[1\]\.user_message/);
    const cases = await api.send('get', `/api/ai-agents/${AGENT}/eval-sets/support/cases`, 200);
    assert.deepEqual(cases.data, [], 'the set was created, and no case stored');

    const imported = await ok(['import', AGENT, ADK_FIXTURE]);
    assert.match(imported.stdout, /imported 4 cases into support \(adk\): 4 created/);
    const names = (await api.send('get', `/api/ai-agents/${AGENT}/eval-sets/support/export`, 200)).cases.map(
      (c: { name: string }) => c.name,
    );
    assert.deepEqual(names, ['greeting', 'multi_turn', 'order_status', 'refund']);
  });

  it('imports JSONL into the set --set names, and lists every invalid case, importing none', async () => {
    const lines = (items: unknown[]): string => items.map((item) => JSON.stringify(item)).join('\n');
    const generated = tmp(
      'generated.jsonl',
      lines([
        { name: 'j1', session_input: { message: 'one' } },
        { name: 'j2', session_input: { message: 'two' }, expected_final_response: 'Two.' },
      ]),
    );
    const unnamed = await assay(['import', AGENT, generated]);
    assert.equal(unnamed.code, 2);
    assert.match(unnamed.stderr, /names no eval set: give --set <name>/);
    assert.match((await ok(['import', AGENT, generated, '--set', 'generated'])).stdout, /2 created/);

    const broken = tmp(
      'broken.jsonl',
      lines([
        { name: 'j3', session_input: { message: '' } },
        { name: 'j4', session_input: { message: 'four' }, rubrics: 'not a list' },
      ]),
    );
    const refused = await assay(['import', AGENT, broken, '--set', 'generated']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /2 problems, nothing imported/);
    assert.match(refused.stderr, /cases\[0\]\.session_input\.message: must not be empty/);
    assert.match(refused.stderr, /cases\[1\]\.rubrics: /);
    const names = (await api.send('get', `/api/ai-agents/${AGENT}/eval-sets/generated/export`, 200)).cases.map(
      (c: { name: string }) => c.name,
    );
    assert.deepEqual(names, ['j1', 'j2']);
  });
});
