import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { runAssay, servedPlatform, type CliResult, type ServedPlatform } from '../helpers/assay-cli';
import { judgeReplies, type JudgeAsk } from '../helpers/eval-api';
import { harness } from '../helpers/harness';
import { startScriptedLlm, type ScriptedLlm } from '../helpers/scripted-llm';
import { seededRandom, seedOf } from '../../domain/scoring/statistics';

const CASES = 30;
const question = (i: number): string => `Question ${i}?`;
const answer = (i: number): string => `Answer ${i}.`;

// A noisy judge of a noisy agent: a right answer is judged right with probability 0.7 per sample, drawn from a PRNG
// seeded by the answer and how often it was judged, so every run gets fresh but reproducible draws (arrival order
// across cases does not matter). A wrong answer is never right.
function noisyJudge(): (ask: JudgeAsk) => boolean {
  const seen = new Map<string, number>();
  return (ask) => {
    const actual = ask.actual_response ?? '';
    if (actual !== ask.expected_response) return false;
    const n = seen.get(actual) ?? 0;
    seen.set(actual, n + 1);
    return seededRandom(seedOf(`${actual}#${n}`))() < 0.7;
  };
}

describe('the CI gate with --fail-on-regression significant: noise is not a regression, a real one is', function () {
  this.timeout(300_000);
  let served: ServedPlatform;
  let llm: ScriptedLlm;
  let tmpDir: string;

  const agentEval = (args: string[]): Promise<CliResult> =>
    runAssay(
      [
        ...['agent:eval', 'noisy-bot', 'faq', '--repeats', '3', '--min-repeat-pass', '2', '--no-cache'],
        ...['--min-pass-rate=0', ...args],
      ],
      served.env,
    );

  // The agent's conversations: the right answer to every case but the `broken` ones.
  const conversations = (file: string, broken: number): string => {
    const lines = Array.from({ length: CASES }, (_, i) =>
      JSON.stringify({
        case: `case ${i}`,
        session_input: { message: question(i) },
        tool_calls: [],
        final_response: i < broken ? 'I do not know.' : answer(i),
      }),
    );
    const target = path.join(tmpDir, file);
    fs.writeFileSync(target, `${lines.join('\n')}\n`);
    return target;
  };

  before(async () => {
    const h = await harness();
    tmpDir = fs.mkdtempSync(path.join(h.tmpDir, 'ci-significance-'));
    llm = await startScriptedLlm(judgeReplies({ match: noisyJudge() }));
    served = await servedPlatform(h, llm, 'noisy-bot');
    await served.api.evalSet('noisy-bot', { name: 'faq' });
    for (let i = 0; i < CASES; i++) {
      await served.api.addCase('noisy-bot', 'faq', {
        name: `case ${i}`,
        session_input: { message: question(i) },
        expected_final_response: answer(i),
      });
    }
  });
  after(async () => {
    await served?.close();
    await llm?.close();
  });

  it('passes an unchanged noisy agent under significant, fails it under any, and fails a real regression under both', async () => {
    const unchanged = conversations('unchanged.jsonl', 0);
    const baseline = await agentEval(['--conversations', unchanged, '--tag', 'main']);
    assert.equal(baseline.code, 0, baseline.stdout + baseline.stderr);

    // The same agent again: some cases flip with the noise, none significantly.
    const noisy = await agentEval([
      ...['--conversations', unchanged, '--baseline', 'tag:main', '--fail-on-regression', 'significant'],
      ...['--json', '-'],
    ]);
    assert.equal(noisy.code, 0, noisy.stdout + noisy.stderr);
    const comparison = JSON.parse(noisy.stdout).comparison;
    assert.ok(comparison.summary.regressed > 0, 'the noise made some case regress');
    assert.equal(comparison.regression.mode, 'significant');
    assert.equal(comparison.regression.significant, false);
    assert.ok(comparison.statistics.mcnemar.p_value >= 0.05, JSON.stringify(comparison.statistics.mcnemar));
    assert.ok(comparison.verdicts.flaky > 0, 'cases that flipped across repeats are told apart as flaky');
    assert.match(noisy.stderr, /paired over 30 cases: \d+ worse, \d+ better, exact McNemar p = [\d.]+/);
    assert.match(noisy.stderr, /^FLAKY case \d+: /m);
    assert.match(noisy.stderr, /PASSED/);

    // The same agent under `any`: the gate as it always was fails on any regressed case.
    const strict = await agentEval(['--conversations', unchanged, '--baseline', 'tag:main', '--fail-on-regression']);
    assert.equal(strict.code, 1, strict.stdout + strict.stderr);
    assert.match(strict.stdout, /FAILED: \d+ cases regressed since baseline run /);

    // A real regression: 20 of the 30 cases now answer wrong. Significant, so both modes fail it.
    const regressed = conversations('regressed.jsonl', 20);
    for (const mode of ['significant', 'any']) {
      const gate = await agentEval([
        ...['--conversations', regressed, '--baseline', 'tag:main', '--fail-on-regression', mode],
      ]);
      assert.equal(gate.code, 1, `${mode}: ${gate.stdout}${gate.stderr}`);
      const reason =
        mode === 'any'
          ? /FAILED: \d+ cases regressed since baseline run /
          : /FAILED: a significant regression since baseline run \S+: \d+ cases worse, \d+ better \(exact McNemar p (<|=) [\d.]+, alpha 0\.05\)/;
      assert.match(gate.stdout, reason);
    }
  });
});
