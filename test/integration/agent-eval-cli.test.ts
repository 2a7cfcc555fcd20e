import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { waitFor } from '../../lib/embedded/process-utils';
import {
  runAssay,
  servedPlatform,
  spawnAssay,
  type CliProcess,
  type CliResult,
  type ServedPlatform,
} from '../helpers/assay-cli';
import { judgeAsk, judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';

const SLOW_CASES = 4;

describe('assay agent:eval (the CI gate)', function () {
  this.timeout(180_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  let tmpDir: string;
  let api: ServedPlatform['api'];

  // Judge calls about the "slow" set's cases wait here; each test that needs them gets a fresh, closed gate.
  const gates: JudgeGate[] = [];
  let slowJudge = judgeGate();
  // A rubric about a coin is met on alternate asks (first, third, …): its case flakes across repeats.
  const coin = { asks: 0 };
  const judge = judgeReplies({
    rubric: (rubric) => (rubric.includes('coin') ? coin.asks++ % 2 === 0 : !rubric.includes('apologizes')),
  });

  const cliEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({ ...served.env, ...env });
  const cli = (args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliResult> =>
    runAssay(['agent:eval', ...args], cliEnv(env));
  const spawnCli = (args: string[]): CliProcess => spawnAssay(['agent:eval', ...args], cliEnv({}));
  const writeFile = (name: string, lines: unknown[]): string => {
    const file = path.join(tmpDir, name);
    fs.writeFileSync(file, lines.map((l) => JSON.stringify(l)).join('\n'));
    return file;
  };
  const runsOf = async (set: string): Promise<any[]> =>
    (await api.send('get', `/api/ai-agents/cli-bot/eval-sets/${set}/runs`, 200)).data;
  /** Waits for the newest run of the set to be running with at least `scored` cases scored. */
  const runningRun = async (set: string, before: number, scored: number): Promise<any> => {
    let run: any;
    await waitFor(`a running run of ${set}`, async () => {
      const runs = await runsOf(set);
      run = runs.length > before ? runs[0] : undefined;
      return run?.status === 'running' && run.scored_cases >= scored;
    });
    return run;
  };
  const waitForCancelledEnd = async (runId: string): Promise<any> => {
    const run = await api.waitForEnd('cli-bot', runId);
    assert.equal(run.status, 'cancelled');
    const results = await api.results('cli-bot', runId);
    assert.equal(new Set(results.map((r) => r.case_id)).size, results.length, 'no case scored twice');
    assert.equal(results.length, run.scored_cases);
    assert.equal(run.summary.not_scored, SLOW_CASES - results.length);
    return { run, results };
  };

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'cli-'));
    llm = await startScriptedLlm(async (req) => {
      if (judgeAsk(req).user_input?.startsWith('slow')) await slowJudge.acquire();
      return judge(req);
    });
    served = await servedPlatform(h, llm, 'cli-bot');
    api = served.api;
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
    const slow = await api.evalSet('cli-bot', { name: 'slow' });
    for (let i = 0; i < SLOW_CASES; i++) {
      const conversation = await api.importRun('cli-bot', {
        session_input: { message: `slow question ${i}` },
        final_response: `slow answer ${i}`,
      });
      await api.promote('cli-bot', conversation.id, slow.id, `slow ${i}`);
    }
  });
  beforeEach(() => {
    slowJudge = judgeGate();
    gates.push(slowJudge);
  });
  after(async () => {
    for (const gate of gates) gate.release(Infinity);
    await served?.close();
    await llm?.close();
  });

  it('exits 0 when the pass rate reaches --min-pass-rate and writes a JUnit file with one testcase per case', async () => {
    const junit = path.join(tmpDir, 'report.xml');
    const json = path.join(tmpDir, 'report.json');
    const result = await cli(['cli-bot', 'smoke', '--min-pass-rate=0.5', '--junit', junit, '--json', json]);
    assert.equal(result.code, 0, result.stderr);
    // The run's id and its builder page, which opens it.
    const started = /eval run ([\w-]+) started: (\S+)/.exec(result.stderr);
    assert.ok(started, result.stderr);
    const [, runId, pageUrl] = started;
    const agentId = (await api.send('get', '/api/ai-agents/cli-bot', 200)).data.id;
    assert.equal(pageUrl, `${served.env.ASSAY_URL}/builder/runs/${runId}?agent=${agentId}`);
    const page = await fetch(pageUrl);
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<script src="\/builder\/assets\/run\.js"/);
    assert.match(result.stdout, /order status\s*│\s*PASSED/);
    assert.match(result.stdout, /cancellation\s*│\s*FAILED/);
    assert.match(result.stdout, /0\.50 FAIL \(min 1\.00\)/, 'the trajectory column shows the partial score');
    assert.match(result.stdout, /pass rate 0\.50 \(minimum 0\.50\)/);
    assert.match(result.stdout, /cost: judge \$\d+\.\d{6}, agent n\/a, total \$\d+\.\d{6}/);
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

  it('prints the judge cache hits of an unchanged re-run, and --no-cache judges every sample afresh', async () => {
    // Three judged samples: the expected response of each case and the rubric of "cancellation".
    await cli(['cli-bot', 'smoke', '--min-pass-rate=0.5']);
    const before = llm.requests.length;
    const cached = await cli(['cli-bot', 'smoke', '--min-pass-rate=0.5']);
    assert.equal(cached.code, 0, cached.stderr);
    assert.match(cached.stdout, /^judge cache: 3 hits, 0 misses$/m);
    assert.equal(llm.requests.length, before, 'no judge call');
    const fresh = await cli(['cli-bot', 'smoke', '--min-pass-rate=0.5', '--no-cache']);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.match(fresh.stdout, /^judge cache: 0 hits, 0 misses$/m);
    assert.equal(llm.requests.length, before + 3);
    assert.equal((await runsOf('smoke'))[0].no_cache, true);
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

  it('--repeats scores each case n times and prints the flaky cases; --min-repeat-pass decides them', async () => {
    await api.evalSet('cli-bot', { name: 'coin', judge_samples: 1 });
    const toss = await api.importRun('cli-bot', { session_input: { message: 'Toss' }, final_response: 'Heads.' });
    const tossCase = await api.promote('cli-bot', toss.id, 'coin', 'toss');
    await api.send('patch', `/api/ai-agents/cli-bot/eval-sets/coin/cases/${tossCase.id}`, 200, {
      rubrics: ['The coin lands heads'],
    });
    const json = path.join(tmpDir, 'coin.json');
    coin.asks = 0;
    const lenient = await cli(['cli-bot', 'coin', '--repeats', '4', '--min-repeat-pass', '2', '--json', json]);
    assert.equal(lenient.code, 0, lenient.stdout + lenient.stderr);
    assert.match(lenient.stdout, /repeats 4 \(a case passes in at least 2\): 1 flaky cases\n\s+toss\s+flip rate 0\.50/);
    const { run, results } = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.deepEqual([run.repeats, run.min_repeat_pass, results[0].flip_rate], [4, 2, 0.5]);
    coin.asks = 0;
    const strict = await cli(['cli-bot', 'coin', '--repeats', '4']);
    assert.equal(strict.code, 1, strict.stdout + strict.stderr);
    assert.match(strict.stdout, /repeats 4 \(a case passes in at least 4\): 1 flaky cases/);
    for (const bad of [
      ['--repeats', '11'],
      ['--repeats', '2', '--min-repeat-pass', '3'],
      ['--min-repeat-pass', '2'],
    ]) {
      const refused = await cli(['cli-bot', 'coin', ...bad]);
      assert.equal(refused.code, 2, bad.join(' '));
      assert.match(refused.stderr, new RegExp(bad[bad.length - 2]));
    }
  });

  it('--conversations scores the given conversation of a case and falls back to the source one for the others', async () => {
    const cases = (await api.send('get', '/api/ai-agents/cli-bot/eval-sets/smoke/cases', 200)).data;
    const file = writeFile('one.jsonl', [
      {
        case: 'order status',
        session_input: { message: 'Where is order 1?' },
        tool_calls: [{ tool_name: 'cancel_order', tool_args: { id: 1 } }],
        final_response: 'Your order shipped.',
      },
    ]);
    const json = path.join(tmpDir, 'one.json');
    const result = await cli(['cli-bot', 'smoke', '--conversations', file, '--min-pass-rate=0', '--json', json]);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /imported 1 conversations from .*one\.jsonl/);
    const { run, results } = JSON.parse(fs.readFileSync(json, 'utf8'));
    assert.equal(run.run_selection, 'explicit');
    const byName = Object.fromEntries(results.map((r: any) => [r.case_name, r]));
    const source = Object.fromEntries(cases.map((c: any) => [c.name, c.source_run_id]));
    assert.notEqual(byName['order status'].conversation_id, source['order status']);
    assert.equal(byName['order status'].status, 'failed', 'scored against the conversation of the file');
    assert.equal(byName.cancellation.conversation_id, source.cancellation);
  });

  it('--require-all names the cases without a conversation and exits 1 without importing or running', async () => {
    const file = writeFile('partial.jsonl', [
      { case: 'order status', session_input: { message: 'Where is order 1?' }, final_response: 'Shipped.' },
    ]);
    const runsBefore = (await runsOf('smoke')).length;
    const conversations = async (): Promise<number> =>
      (await api.send('get', '/api/ai-agents/cli-bot/runs?limit=500', 200)).data.length;
    const conversationsBefore = await conversations();
    const result = await cli(['cli-bot', 'smoke', '--conversations', file, '--require-all']);
    assert.equal(result.code, 1, result.stdout + result.stderr);
    assert.match(
      result.stdout,
      /FAILED: 1 cases of smoke have no conversation in .*partial\.jsonl \(--require-all\): cancellation\n/,
    );
    assert.equal((await runsOf('smoke')).length, runsBefore);
    assert.equal(await conversations(), conversationsBefore);
  });

  it('exits 2 on bad options and a bad conversations file, before it imports or runs anything', async () => {
    const runsBefore = (await runsOf('smoke')).length;
    const unknownCase = writeFile('unknown.jsonl', [
      { case: 'order status', session_input: { message: 'a' }, final_response: 'b' },
      { case: 'no such case', session_input: { message: 'c' }, final_response: 'd' },
    ]);
    const badLine = path.join(tmpDir, 'bad.jsonl');
    fs.writeFileSync(badLine, '{"case":"order status"}\nnot json\n');
    const cases: Array<[string[], RegExp]> = [
      [['--fail-on-regression'], /--fail-on-regression needs --baseline/],
      [['--require-all'], /--require-all needs --conversations/],
      [['--timeout', '0'], /--timeout must be whole seconds/],
      [['--baseline', 'latest'], /--baseline must be a run id, last-completed or tag:<name>/],
      [['--baseline', '00000000-0000-4000-8000-000000000000'], /not found/],
      [['--tag', 'not a tag'], /--tag "not a tag": may only hold/],
      [['--conversations', path.join(tmpDir, 'absent.jsonl')], /absent\.jsonl: no such file/],
      [['--conversations', badLine], /bad\.jsonl line 2: not valid JSON/],
      [['--conversations', unknownCase], /unknown\.jsonl line 2 › case/],
    ];
    for (const [args, message] of cases) {
      const result = await cli(['cli-bot', 'smoke', ...args]);
      assert.equal(result.code, 2, `${args.join(' ')}: ${result.stdout}${result.stderr}`);
      assert.match(result.stderr, message, args.join(' '));
    }
    assert.equal((await runsOf('smoke')).length, runsBefore);
  });

  it('cancels the run and exits 2 when it has not ended within --timeout', async () => {
    const before = (await runsOf('slow')).length;
    const result = await cli(['cli-bot', 'slow', '--timeout', '2']);
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(
      result.stderr,
      /eval run \S+ did not end within --timeout 2 s; it ended cancelled: 0 cases scored, 4 not scored/,
    );
    const runs = await runsOf('slow');
    assert.equal(runs.length, before + 1);
    await waitForCancelledEnd(runs[0].id);
  });

  it('cancels the run on Ctrl-C and exits 2, the cases already scored kept and none scored twice', async () => {
    const before = (await runsOf('slow')).length;
    const gate = spawnCli(['cli-bot', 'slow']);
    slowJudge.release(1);
    const run = await runningRun('slow', before, 1);
    gate.child.kill('SIGINT');
    const result = await gate.done;
    assert.equal(result.code, 2, result.stdout + result.stderr);
    assert.match(result.stderr, /SIGINT: cancelling the run \(Ctrl-C again to exit now\)/);
    assert.match(result.stderr, /was interrupted; it ended cancelled: 1 cases scored, 3 not scored/);
    const { results } = await waitForCancelledEnd(run.id);
    assert.equal(results.length, 1);
  });
});
