import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { XMLParser } from 'fast-xml-parser';
import { runAssay, servedPlatform, type CliResult, type ServedPlatform } from '../helpers/assay-cli';
import { judgeReplies } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';

type ToolCall = { tool_name: string; tool_args: Record<string, unknown> };
interface Behaviour {
  tools: ToolCall[];
  reply: string;
}

// The set, written by hand: each case's input, the trajectory and the answer it expects.
const CASES: Record<string, { message: string } & Behaviour> = {
  'order status': {
    message: 'Where is order 1?',
    tools: [{ tool_name: 'lookup_order', tool_args: { id: 1 } }],
    reply: 'Order 1 shipped.',
  },
  'cancel order': {
    message: 'Cancel order 2',
    tools: [
      { tool_name: 'lookup_order', tool_args: { id: 2 } },
      { tool_name: 'cancel_order', tool_args: { id: 2 } },
    ],
    reply: 'Order 2 is cancelled.',
  },
  'change address': {
    message: 'Ship order 3 to Main St 5',
    tools: [{ tool_name: 'update_address', tool_args: { id: 3, street: 'Main St 5' } }],
    reply: 'Order 3 now ships to Main St 5.',
  },
  refund: {
    message: 'Refund order 4',
    tools: [{ tool_name: 'refund', tool_args: { id: 4 } }],
    reply: 'Order 4 is refunded.',
  },
  greeting: { message: 'Hello', tools: [], reply: 'Hello! How can I help?' },
};

// The agent on main: right everywhere but "change address" (it forgets the street).
const MAIN_AGENT: Record<string, Behaviour> = {
  ...CASES,
  'change address': { tools: [{ tool_name: 'update_address', tool_args: { id: 3 } }], reply: 'Address updated.' },
};
// The change under review: fixes "change address", breaks "cancel order" (refunds instead) and "refund" (wrong reply).
const CHANGED_AGENT: Record<string, Behaviour> = {
  ...CASES,
  'cancel order': {
    tools: [
      { tool_name: 'lookup_order', tool_args: { id: 2 } },
      { tool_name: 'refund', tool_args: { id: 2 } },
    ],
    reply: 'Order 2 is cancelled.',
  },
  refund: { tools: [{ tool_name: 'refund', tool_args: { id: 4 } }], reply: 'I cannot refund that.' },
};

describe('the CI recipe: score the conversations CI produced against the last good run', function () {
  this.timeout(180_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  let api: ServedPlatform['api'];
  let tmpDir: string;

  const agentEval = (args: string[]): Promise<CliResult> =>
    runAssay(['agent:eval', 'ci-bot', 'checkout', ...args], served.env);

  // What the team's CI job does: export the set for its inputs, run its agent on each case's input, and write one
  // conversation a line.
  const writeConversations = async (file: string, agent: Record<string, Behaviour>): Promise<string> => {
    const exported = path.join(tmpDir, 'checkout.json');
    const exportRun = await runAssay(['eval-set', 'export', 'ci-bot', 'checkout', '--out', exported], served.env);
    assert.equal(exportRun.code, 0, exportRun.stderr);
    const { cases } = JSON.parse(fs.readFileSync(exported, 'utf8')) as {
      cases: Array<{ name: string; session_input: { message: string } }>;
    };
    assert.equal(cases.length, Object.keys(CASES).length);
    const lines = cases.map((c) =>
      JSON.stringify({
        case: c.name,
        session_input: c.session_input,
        tool_calls: agent[c.name].tools,
        final_response: agent[c.name].reply,
      }),
    );
    const target = path.join(tmpDir, file);
    fs.writeFileSync(target, `${lines.join('\n')}\n`);
    return target;
  };

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'ci-recipe-'));
    // The judge says two answers match when they are the same text.
    llm = await startScriptedLlm(judgeReplies({}));
    served = await servedPlatform(h, llm, 'ci-bot');
    api = served.api;
    await api.evalSet('ci-bot', { name: 'checkout' });
    for (const [name, c] of Object.entries(CASES)) {
      await api.addCase('ci-bot', 'checkout', {
        name,
        session_input: { message: c.message },
        expected_trajectory: c.tools,
        expected_final_response: c.reply,
      });
    }
  });
  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('gates a change on its regressions against the last completed run, and passes an unchanged one', async () => {
    const onMain = await writeConversations('main.jsonl', MAIN_AGENT);
    const baseline = await agentEval(['--conversations', onMain, '--tag', 'main', '--min-pass-rate=0.5']);
    assert.equal(baseline.code, 0, baseline.stderr);
    assert.match(baseline.stdout, /change address\s*│\s*FAILED/);
    assert.match(baseline.stdout, /pass rate 0\.80/);
    const mainRuns = (await api.send('get', '/api/ai-agents/ci-bot/eval-sets/checkout/runs?tag=main', 200)).data;
    assert.equal(mainRuns.length, 1);
    assert.deepEqual(mainRuns[0].tags, ['main']);
    assert.equal(mainRuns[0].run_selection, 'explicit');

    // The same conversations again, against the run tagged main: nothing regressed.
    const unchanged = await agentEval([
      ...['--conversations', onMain, '--baseline', 'tag:main', '--fail-on-regression', '--min-pass-rate=0.5'],
    ]);
    assert.equal(unchanged.code, 0, unchanged.stdout + unchanged.stderr);
    assert.match(unchanged.stdout, new RegExp(`compared with baseline run ${mainRuns[0].id}`));
    assert.match(unchanged.stdout, /0 regressed, 0 fixed, 1 still failing, 0 new, 0 removed, 4 still passing/);
    assert.doesNotMatch(unchanged.stdout, /REGRESSED|FIXED/);
    assert.match(unchanged.stdout, /PASSED/);

    // The change: two cases worse, one better. The pass rate (0.60) meets the minimum, the regressions fail the gate.
    const changed = await writeConversations('change.jsonl', CHANGED_AGENT);
    const junit = path.join(tmpDir, 'change.xml');
    const gate = await agentEval([
      ...['--conversations', changed, '--baseline', 'last-completed', '--fail-on-regression'],
      ...['--min-pass-rate=0.5', '--tag', 'a1b2c3d', '--junit', junit],
    ]);
    assert.equal(gate.code, 1, gate.stdout + gate.stderr);
    const report = gate.stdout.slice(gate.stdout.indexOf('compared with baseline run'));
    const lines = report.split('\n');
    assert.match(
      lines[1],
      /^REGRESSED cancel order: passed → failed; tool_trajectory_avg_score 1\.00 → 0\.50 \(-0\.50\)/,
    );
    assert.match(lines[2], /^REGRESSED refund: passed → failed; final_response_match 1\.00 → 0\.00 \(-1\.00\)/);
    assert.match(lines[3], /^FIXED change address: failed → passed; /);
    assert.equal(lines[4], '2 regressed, 1 fixed, 0 still failing, 0 new, 0 removed, 2 still passing');
    assert.match(gate.stdout, /pass rate 0\.60 \(minimum 0\.50\)/);
    assert.match(gate.stdout, /FAILED: 2 cases regressed since baseline run /);
    assert.doesNotMatch(gate.stdout, /FAILED: pass rate/);
    const suite = new XMLParser({
      ignoreAttributes: false,
      isArray: (n) => ['testcase', 'property'].includes(n),
    }).parse(fs.readFileSync(junit, 'utf8')).testsuites.testsuite;
    const props = Object.fromEntries(
      suite.properties.property.map((p: Record<string, string>) => [p['@_name'], p['@_value']]),
    );
    assert.deepEqual([props.regressed, props.fixed, props.still_passing], ['2', '1', '2']);
    const refund = suite.testcase.find((c: Record<string, string>) => c['@_name'] === 'refund');
    assert.equal(refund.properties.property[0]['@_value'], 'regressed');

    // The same change scored again is unchanged against the last completed run (the change itself): exit 0.
    const again = await agentEval([
      ...['--conversations', changed, '--baseline', 'last-completed', '--fail-on-regression', '--min-pass-rate=0.5'],
      ...['--json', '-'],
    ]);
    assert.equal(again.code, 0, again.stderr);
    const json = JSON.parse(again.stdout);
    assert.equal(json.comparison.summary.regressed, 0);
    assert.equal(json.comparison.summary.still_passing, 3);
    assert.equal(json.results.length, 5);
    assert.match(
      again.stderr,
      /0 regressed, 0 fixed, 2 still failing, 0 new, 0 removed, 3 still passing/,
      'the report moves to stderr',
    );

    // The change against main again, detailed: each regressed case is followed by its trajectory diff, and JUnit
    // tells each case's verdict.
    const detailedJunit = path.join(tmpDir, 'detailed.xml');
    const detailed = await agentEval([
      ...['--conversations', changed, '--baseline', 'tag:main', '--fail-on-regression', '--min-pass-rate=0.5'],
      ...['--detailed', '--junit', detailedJunit],
    ]);
    assert.equal(detailed.code, 1, detailed.stdout + detailed.stderr);
    const diff = detailed.stdout.slice(detailed.stdout.indexOf('REGRESSED cancel order')).split('\n');
    assert.deepEqual(diff.slice(1, 5), [
      '    trajectory diff: 1 matched (0 with other arguments), 1 missing, 1 extra',
      '    = lookup_order',
      '    - missing cancel_order {"id":2} (baseline call 1)',
      '    + extra refund {"id":2} (run call 1)',
    ]);
    assert.match(
      detailed.stdout,
      /^paired over 5 cases: 2 worse, 1 better, exact McNemar p = 1\.00; pass rate delta -0\.20/m,
    );
    const detailedSuite = new XMLParser({
      ignoreAttributes: false,
      isArray: (n) => ['testcase', 'property'].includes(n),
    }).parse(fs.readFileSync(detailedJunit, 'utf8')).testsuites.testsuite;
    const verdictOf = (name: string): string[] =>
      detailedSuite.testcase
        .find((c: Record<string, string>) => c['@_name'] === name)
        .properties.property.map((p: Record<string, string>) => p['@_value']);
    assert.deepEqual(verdictOf('refund'), ['regressed', 'regressed']);
    assert.deepEqual(verdictOf('change address'), ['fixed', 'improved']);
    const suiteProps = Object.fromEntries(
      detailedSuite.properties.property.map((p: Record<string, string>) => [p['@_name'], p['@_value']]),
    );
    assert.deepEqual(
      [suiteProps.verdict_regressed, suiteProps.verdict_improved, suiteProps.regression_mode],
      ['2', '1', 'any'],
    );
  });
});
