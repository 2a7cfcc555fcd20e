import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { revokeApiToken } from '../../db/api-token.repository';
import { issueToken } from '../../lib/api-tokens';
import { LIMITS } from '../../domain/limits';
import { waitFor } from '../../lib/embedded/process-utils';
import { ARTIFACTS, openWithToken, startBuilderRig, type BuilderRig } from '../helpers/builder-browser';
import { judgeReplies } from '../helpers/eval-api';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { ORDER_CASE, ORDER_CONVERSATION, ORDER_CONVERSATION_RIGHT, ORDER_SCENARIO } from '../helpers/multi-turn-order';
import { serveWithRelay } from '../helpers/relay-client';
import { KETTLE_SCENARIO, KETTLE_TURNS } from '../helpers/scenario-kettle';

const CASES = 30;
const JUDGE_DELAY_MS = 300;

// Cases 4, 13 and 22 are judged not equivalent; every seventh conversation (3, 10, 17, 24) had a guardrail fire.
// A simulated user turn that asks about prices breaks its persona (the scenario case below).
const judge = judgeReplies({
  match: (ask) => ask.expected_response === ask.actual_response && !/#(4|13|22)\b/.test(ask.user_input),
  userTurn: (message) => !/price/i.test(message),
  delayMs: JUDGE_DELAY_MS,
});
const conversation = (i: number): Record<string, unknown> => ({
  session_input: { message: `Customer question #${i}: where is order ${1000 + i}?` },
  tool_calls: [
    { tool_name: 'lookup_order', tool_args: { id: 1000 + i } },
    { tool_name: 'reply', tool_args: { tone: 'friendly' } },
  ],
  final_response: `Order ${1000 + i} ships tomorrow.`,
  ...(i % 7 === 3
    ? { guardrail_events: [{ guardrail: 'pii_filter', stage: 'output', detail: 'masked an e-mail address' }] }
    : {}),
});

// Counts the case rows by state (waiting, passed, failed, error).
async function states(page: Page): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const state of await page
    .locator('[data-case-id]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('data-state') ?? '?'))) {
    counts[state] = (counts[state] ?? 0) + 1;
  }
  return counts;
}

// Browser-side predicates, run in the page (the test's TypeScript has no DOM types; the page's CSP forbids eval).
const ALL_WAITING = (n: number): boolean =>
  [...(globalThis as any).document.querySelectorAll('[data-case-id]')].filter((r: any) => r.dataset.state === 'waiting')
    .length === n;
const SOME_WAITING_SOME_DONE = (): boolean => {
  const all: string[] = [...(globalThis as any).document.querySelectorAll('[data-case-id]')].map(
    (r: any) => r.dataset.state,
  );
  return all.includes('waiting') && (all.includes('passed') || all.includes('failed'));
};
const ROWS_DONE = ({ rows, done }: { rows: number; done: number }): boolean => {
  const all: string[] = [...(globalThis as any).document.querySelectorAll('[data-case-id]')].map(
    (r: any) => r.dataset.state,
  );
  return all.length === rows && all.filter((s) => s === 'passed' || s === 'failed').length === done;
};
const RUN_COMPLETED = (): boolean =>
  (globalThis as any).document.querySelector('#run-status')?.dataset.status === 'completed';
const COMPLETED_OR_ERROR = (): boolean =>
  (globalThis as any).document.querySelector('#run-status')?.dataset.status === 'completed' ||
  !(globalThis as any).document.getElementById('error').hidden;

describe('builder eval page in headless Chromium', () => {
  let rig: BuilderRig;
  let gate: JudgeGate;
  let api: BuilderRig['api'];
  let agent: any;
  let set: any;
  const caseIds: string[] = [];
  const conversationIds: string[] = [];

  before(async () => {
    gate = judgeGate();
    rig = await startBuilderRig(
      async (req) => {
        await gate.acquire();
        return judge(req);
      },
      { EVAL_CONCURRENCY: '2' },
    );
    ({ api, agent } = rig);
    set = await api.evalSet('concierge', { name: 'order questions', description: 'Thirty order-status conversations' });
    for (let i = 0; i < CASES; i++) {
      const imported = await api.importRun('concierge', conversation(i));
      conversationIds.push(imported.id);
      caseIds.push((await api.promote('concierge', imported.id, set.id, `order question ${i}`)).id);
    }
  });

  after(async () => {
    gate?.release(Infinity);
    await rig?.close();
  });

  it('shows every case waiting, then passed or failed as results arrive without a reload, and the same summary as the API', async () => {
    // Case 10 is scored against conversation 11: one call missing, one extra, and a different final response.
    const queued = await api.trigger('concierge', set.id, {
      run_selection: 'explicit',
      conversations: { [caseIds[10]]: conversationIds[11] },
    });
    const { page, problems } = await openWithToken(
      rig.browser,
      `${rig.served.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}`,
      rig.owner.token,
      { viewport: { width: 1280, height: 900 } },
    );
    let navigations = 0;
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) navigations++;
    });
    await page.waitForFunction(ALL_WAITING, CASES);
    assert.equal(await page.locator('#progress').textContent(), `0/${CASES}`);
    assert.equal(await page.locator('#live').textContent(), 'live');

    gate.release(Infinity);
    await page.waitForFunction(SOME_WAITING_SOME_DONE);
    const midway = await states(page);
    assert.ok(midway.waiting > 0 && midway.waiting < CASES, JSON.stringify(midway));
    await page.screenshot({ path: path.join(ARTIFACTS, 'builder-run-live.png') });

    await page.waitForFunction(RUN_COMPLETED, undefined, { timeout: 60_000 });
    const run = await api.waitForEnd('concierge', queued.id);
    const results = await api.results('concierge', queued.id);
    assert.equal(navigations, 0, 'the page was never reloaded');

    const done = await states(page);
    assert.deepEqual(done, { passed: run.summary.counts.passed, failed: run.summary.counts.failed });
    assert.equal(await page.locator('#progress').textContent(), `${CASES}/${CASES}`);
    assert.equal(await page.locator('#summary .big').textContent(), `${(run.summary.pass_rate * 100).toFixed(1)}%`);
    const counts = run.summary.counts;
    assert.equal(
      await page.locator('#summary .counts').textContent(),
      `${counts.passed} passed · ${counts.failed} failed · ${counts.error} error · ${counts.total} total`,
    );
    const shown = await page.$$eval('#summary [data-criterion]', (rows) =>
      rows.map((r) => {
        const value = r.querySelector('td[data-value]')?.getAttribute('data-value');
        return [r.getAttribute('data-criterion'), value ? Number(value) : null];
      }),
    );
    assert.deepEqual(Object.fromEntries(shown), run.summary.avg_score);

    for (const result of results) {
      assert.equal(
        await page.locator(`[data-case-id="${result.case_id}"]`).getAttribute('data-state'),
        result.status,
        result.case_name,
      );
    }

    // The mismatched case: matched, missing and extra calls, both final responses, and one score entry per criterion.
    const mismatched = results.find((r) => r.case_id === caseIds[10]);
    const row = page.locator(`[data-case-id="${caseIds[10]}"]`);
    await row.locator('summary').click();
    assert.equal(await row.locator('.call.matched').count(), 2);
    assert.deepEqual(await row.locator('.call.missing code').allTextContents(), ['lookup_order']);
    assert.deepEqual(await row.locator('.call.extra code').allTextContents(), ['lookup_order']);
    assert.match((await row.locator('.call.missing').textContent()) ?? '', /1010/);
    assert.match((await row.locator('.call.extra').textContent()) ?? '', /1011/);
    assert.deepEqual(await row.locator('blockquote').allTextContents(), [
      'Customer question #10: where is order 1010?',
      'Order 1010 ships tomorrow.',
      'Order 1011 ships tomorrow.',
    ]);
    for (const [key, entry] of Object.entries<any>(mismatched.criteria)) {
      const cells = await row.locator(`.scores [data-criterion="${key}"] td`).allTextContents();
      const verdict = !entry.applicable ? 'n/a' : entry.passed ? 'pass' : 'fail';
      assert.deepEqual(
        cells.slice(1),
        [entry.score.toFixed(3), entry.min_score === null ? '–' : entry.min_score.toFixed(3), verdict],
        key,
      );
    }
    assert.equal(await row.locator('.guardrails').textContent(), 'No guardrail fired.');

    const guarded = page.locator(`[data-case-id="${caseIds[17]}"]`);
    await guarded.locator('summary').click();
    assert.match(
      (await guarded.locator('.guardrails').textContent()) ?? '',
      /Guardrails that fired.*pii_filter at output/,
    );

    await page.screenshot({ path: path.join(ARTIFACTS, 'builder-run.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows a multi-turn result as it arrives over /ws: every turn with its scores, the turn that failed first and the missing turn', async () => {
    const turnsSet = await api.evalSet('concierge', { name: 'cancel and refund' });
    const evalCase = await api.addCase('concierge', turnsSet.id, ORDER_CASE);
    const scenario = await api.addCase('concierge', turnsSet.id, ORDER_SCENARIO);
    // The baseline: every turn right.
    const right = await api.importRun('concierge', ORDER_CONVERSATION_RIGHT);
    gate = judgeGate();
    gate.release(Infinity);
    const baseline = await api.trigger('concierge', turnsSet.id, {
      run_selection: 'explicit',
      conversations: { [evalCase.id]: right.id },
    });
    await api.waitForEnd('concierge', baseline.id);
    gate = judgeGate();
    const conversation = await api.importRun('concierge', ORDER_CONVERSATION);
    const queued = await api.trigger('concierge', turnsSet.id, {
      run_selection: 'explicit',
      conversations: { [evalCase.id]: conversation.id },
      min_scores: { response_match_score: 0.5 },
    });
    // The gate holds the judge until the page watches, so the result reaches it as a WebSocket case event.
    const { page, problems } = await openWithToken(
      rig.browser,
      `${rig.served.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}`,
      rig.owner.token,
      { viewport: { width: 1280, height: 900 } },
    );
    const row = page.locator(`[data-case-id="${evalCase.id}"]`);
    await page.locator(`[data-case-id="${evalCase.id}"][data-state="waiting"]`).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.querySelector('#live')?.textContent === 'live');
    // Opened while waiting, it lists the case's turns; it stays open when the result replaces it.
    await row.locator('summary').first().click();
    assert.deepEqual(
      await row.locator('.turn-messages li').allTextContents(),
      ORDER_CASE.turns.map((t) => t.user_message),
    );
    gate.release(Infinity);
    await page.waitForFunction(RUN_COMPLETED, undefined, { timeout: 60_000 });
    await api.waitForEnd('concierge', queued.id);
    const results = await api.results('concierge', queued.id);
    const result = results.find((r) => r.case_id === evalCase.id);
    const skippedResult = results.find((r) => r.case_id === scenario.id);
    // Checked by hand: turn 1 calls lookup_order instead of cancel_order and answers otherwise; turn 3 never came.
    assert.equal(result.status, 'failed');
    assert.equal(result.first_failed_turn, 1);
    assert.deepEqual(
      result.turns.map((t: any) => [t.turn, t.status, t.passed]),
      [
        [0, 'scored', true],
        [1, 'scored', false],
        [2, 'scored', true],
        [3, 'missing', false],
      ],
    );

    assert.equal(await row.locator('.chip.turns').textContent(), '4 turns · 2 passed · turn 1 failed first');
    assert.deepEqual(
      await row
        .locator('.turns-table tr[data-turn]')
        .evaluateAll((rows) =>
          rows.map((r) => [r.getAttribute('data-turn'), r.getAttribute('data-turn-status'), r.className]),
        ),
      [
        ['0', 'scored', 'turn-row passed'],
        ['1', 'scored', 'turn-row failed first-failed'],
        ['2', 'scored', 'turn-row passed'],
        ['3', 'missing', 'turn-row failed'],
      ],
    );
    for (const turn of result.turns) {
      for (const [key, entry] of Object.entries<any>(turn.criteria)) {
        const cell = row.locator(`.turns-table tr[data-turn="${turn.turn}"] td[data-criterion="${key}"]`);
        assert.equal(await cell.textContent(), entry.score.toFixed(3), `turn ${turn.turn} ${key}`);
      }
    }
    assert.match(
      (await row.locator('.turns-table tr[data-turn="3"]').textContent()) ?? '',
      /missing: the agent gave no turn 3/,
    );
    const failedTurn = row.locator('[data-turn-detail="1"]');
    assert.deepEqual(await failedTurn.locator('.call.missing code').allTextContents(), ['cancel_order']);
    assert.deepEqual(await failedTurn.locator('.call.extra code').allTextContents(), ['lookup_order']);
    assert.equal(await failedTurn.locator('blockquote.actual').textContent(), 'I cannot cancel orders.');
    assert.match(
      (await row.locator('.conversation-rubrics').textContent()) ?? '',
      /met Stays polite throughout the conversation/,
    );

    const skipped = page.locator(`[data-case-id="${scenario.id}"]`);
    assert.equal(await skipped.getAttribute('data-state'), 'skipped');
    await skipped.locator('summary').click();
    assert.equal(await skipped.locator('.skip-reason').textContent(), `Skipped: ${skippedResult.skip_reason}`);
    assert.match((await page.locator('#summary .counts').textContent()) ?? '', /· 1 skipped ·/);

    await page.screenshot({ path: path.join(ARTIFACTS, 'builder-run-turns.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();

    // Compared with the baseline, the case says which turn failed first in each run.
    const compared = await openWithToken(
      rig.browser,
      `${rig.served.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}&baseline=${baseline.id}`,
      rig.owner.token,
    );
    const entry = compared.page.locator(`.compare-cases tr[data-compare-case-id="${evalCase.id}"]`);
    await entry.waitFor();
    assert.equal(await entry.getAttribute('data-transition'), 'regressed');
    assert.equal(await entry.locator('.chip.first-failed-turn').textContent(), 'First failed turn none → turn 1');
    assert.deepEqual(compared.problems, []);
    await compared.page.close();
  });

  it('shows a scenario case scored against a conversation: persona, plan, each simulated user turn marked, both criteria', async () => {
    const scenarioSet = await api.evalSet('concierge', { name: 'simulated customers' });
    const scenario = await api.addCase('concierge', scenarioSet.id, KETTLE_SCENARIO);
    const played = await api.importRun('concierge', { turns: KETTLE_TURNS });
    gate = judgeGate();
    gate.release(Infinity);
    const queued = await api.trigger('concierge', scenarioSet.id, {
      run_selection: 'explicit',
      conversations: { [scenario.id]: played.id },
    });
    await api.waitForEnd('concierge', queued.id);
    const [result] = await api.results('concierge', queued.id);
    // Checked by hand: the plan and the rubric hold (2 of 2); turn 1 asks about prices (2 of 3 turns kept), not gating.
    assert.equal(result.status, 'passed');
    assert.deepEqual([result.criteria.task_success.score, result.criteria.persona_adherence.score], [1, 2 / 3]);
    const { page, problems } = await openWithToken(
      rig.browser,
      `${rig.served.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}`,
      rig.owner.token,
      { viewport: { width: 1280, height: 900 } },
    );
    const row = page.locator(`[data-case-id="${scenario.id}"][data-state="passed"]`);
    await row.waitFor();
    await row.locator('summary').first().click();
    assert.deepEqual(await row.locator('.chip').allTextContents(), [
      '3 turns · 3 passed · no turn failed',
      'Task success 1.000',
      'Persona 0.667',
      'Safety 1.000',
    ]);
    assert.equal(await row.locator('tr[data-criterion="persona_adherence"] td').nth(2).textContent(), '–');
    assert.match((await row.locator('.scenario .persona').textContent()) ?? '', /A novice customer.*asks about prices/);
    assert.deepEqual(
      await row.locator('.transcript .simulated-user blockquote').allTextContents(),
      KETTLE_TURNS.map((t) => t.user_message),
    );
    assert.deepEqual(
      await row
        .locator('[data-simulated="true"] [data-persona-kept]')
        .evaluateAll((flags) => flags.map((f) => f.getAttribute('data-persona-kept'))),
      ['true', 'false', 'true'],
    );
    assert.deepEqual(
      await row.locator('.transcript .agent blockquote').allTextContents(),
      KETTLE_TURNS.map((t) => t.final_response),
    );
    assert.match((await row.locator('.scenario .rubrics').textContent()) ?? '', /met confirms the refund/);
    await page.screenshot({ path: path.join(ARTIFACTS, 'builder-run-scenario.png'), fullPage: true });
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('stops live updates and forgets the token when the token is revoked while the page watches (close 4401)', async () => {
    gate = judgeGate();
    // Judged afresh (the first test cached these verdicts), so the gate holds the run while the page watches.
    const queued = await api.trigger('concierge', set.id, { no_cache: true });
    const { platform, owner } = rig;
    const deps = { config: platform.config, db: platform.runtime.db, logger: platform.logger };
    const watching = await serveWithRelay(platform.app, deps, { tokenRecheckMs: 200 });
    const revocable = await issueToken(platform.runtime.db, {
      userId: owner.userId,
      workspaceId: owner.workspaceId,
      name: 'revoked while watching',
    });
    const { page } = await openWithToken(
      rig.browser,
      `${watching.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}`,
      revocable.token,
    );
    try {
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#live')?.textContent === 'live');

      assert.ok(await revokeApiToken(platform.runtime.db, owner.userId, revocable.id));
      await page.waitForFunction(() => (globalThis as any).document.querySelector('#live')?.textContent === 'stopped');
      assert.match((await page.locator('#error').textContent()) ?? '', /token was revoked or has expired/);
      assert.equal(await page.evaluate(() => (globalThis as any).sessionStorage.getItem('assay.token')), null);
    } finally {
      gate.release(Infinity);
      await page.close();
      await watching.close();
      await api.waitForEnd('concierge', queued.id, 60_000);
    }
  });

  it("lists an agent's eval sets with their runs, each linking to its page", async () => {
    const { page } = await openWithToken(rig.browser, `${rig.served.baseUrl}/builder`, rig.owner.token);
    await page.locator('#agent-select').selectOption(agent.id);
    const card = page.locator(`[data-set-id="${set.id}"]`);
    await card.waitFor();
    assert.equal(await card.locator('h2').textContent(), 'order questions');
    const runs = (await api.send('get', `/api/ai-agents/${agent.id}/eval-sets/${set.id}/runs`, 200)).data;
    assert.deepEqual(
      await card.locator('[data-run-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run-id'))),
      runs.map((r: any) => r.id),
    );
    await card.locator(`[data-run-id="${runs[0].id}"] a`).click();
    await page.waitForURL(`**/builder/runs/${runs[0].id}?agent=${agent.id}`);
    // The token was kept for this tab: the run page opens without asking again.
    await page.waitForFunction(RUN_COMPLETED);
    assert.equal(await page.locator('#token-form').count(), 0);
    await page.close();
  });

  it("opens a run from a link without ?agent=, finding its agent among the workspace's", async () => {
    const runs = (await api.send('get', `/api/ai-agents/${agent.id}/eval-sets/${set.id}/runs`, 200)).data;
    const link = `${rig.served.baseUrl}/builder/runs/${runs[0].id}`;
    const { page } = await openWithToken(rig.browser, link, rig.owner.token);
    await page.waitForFunction(COMPLETED_OR_ERROR);
    assert.equal(await page.locator('#error').evaluate((box: any) => (box.hidden ? '' : box.textContent)), '');
    assert.equal(new URL(page.url()).searchParams.get('agent'), agent.id);
    await page.close();
  });

  it('shows every case of a run larger than one WebSocket snapshot, fetching the rest through the paged API', async () => {
    gate = judgeGate();
    const many = await api.evalSet('concierge', { name: 'many questions' });
    const total = LIMITS.pageDefault + 5;
    for (let i = 0; i < total; i++) {
      const imported = await api.importRun('concierge', conversation(i));
      await api.promote('concierge', imported.id, many.id, `many ${i}`);
    }
    // More results than a snapshot holds are stored before the page subscribes; the gate holds the last three.
    const scoredFirst = LIMITS.pageDefault + 2;
    // The same conversations as the first set's: judged afresh, so the gate decides how many are scored.
    const queued = await api.trigger('concierge', many.id, { judge_samples: 1, no_cache: true });
    gate.release(scoredFirst);
    await waitFor(`${scoredFirst} results`, async () => {
      const run = (await api.send('get', `/api/ai-agents/${agent.id}/eval-runs/${queued.id}`, 200)).data;
      return run.scored_cases === scoredFirst;
    });
    const { page, problems } = await openWithToken(
      rig.browser,
      `${rig.served.baseUrl}/builder/runs/${queued.id}?agent=${agent.id}`,
      rig.owner.token,
    );
    await page.waitForFunction(ROWS_DONE, { rows: total, done: scoredFirst });
    assert.equal(await page.locator('#progress').textContent(), `${scoredFirst}/${total}`);

    gate.release(Infinity);
    await page.waitForFunction(RUN_COMPLETED, undefined, { timeout: 60_000 });
    await page.waitForFunction(ROWS_DONE, { rows: total, done: total });
    assert.equal(await page.locator('#progress').textContent(), `${total}/${total}`);
    assert.deepEqual(problems, []);
    await page.close();
  });
});
