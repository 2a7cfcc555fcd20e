import assert from 'node:assert/strict';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { LIMITS } from '../../domain/limits';
import { ARTIFACTS, openWithToken, startBuilderRig, type BuilderRig } from '../helpers/builder-browser';
import { judgeReplies } from '../helpers/eval-api';
import { judgeGate, type JudgeGate } from '../helpers/judge-gate';
import { promoteCases, type PromotedCase } from '../helpers/promoted-cases';

// One more case than a page of the comparison holds even after one is removed: "More" has a second page to load.
const CASES = LIMITS.pageDefault + 3;
const ADDED = 'added later';

// The judge fails the cases whose number is in `failing` ("case 3" is the case promoted from message "case 3").
let failing = new Set<number>();
let hold: JudgeGate | null = null;
const judge = judgeReplies({
  match: (ask) =>
    ask.expected_response === ask.actual_response && !failing.has(Number(/^case (\d+)$/.exec(ask.user_input)?.[1])),
});

// Baseline: cases 1, 2, 3 fail. Then case 4 is deleted, ADDED is added, and the run fails cases 3, 5, 6, 7.
const HEAD = [
  ['case 5', 'regressed', 'passed', 'failed'],
  ['case 6', 'regressed', 'passed', 'failed'],
  ['case 7', 'regressed', 'passed', 'failed'],
  ['case 1', 'fixed', 'failed', 'passed'],
  ['case 2', 'fixed', 'failed', 'passed'],
  ['case 3', 'still_failing', 'failed', 'failed'],
  [ADDED, 'new', 'absent', 'passed'],
  ['case 4', 'removed', 'passed', 'absent'],
];
const STILL_PASSING = CASES - 7;
const COUNTS = { regressed: 3, fixed: 2, still_failing: 1, new: 1, removed: 1, still_passing: STILL_PASSING };

// Browser-side predicates, run in the page (the test's TypeScript has no DOM types; the page's CSP forbids eval).
const ROWS = (n: number): boolean =>
  (globalThis as any).document.querySelectorAll('.compare-cases tbody tr').length === n;
const COMPARE_READY = (): boolean => !(globalThis as any).document.querySelector('#baseline-select').disabled;
const ERROR_SHOWN = (): boolean => !(globalThis as any).document.querySelector('#compare-error').hidden;

/** Each row's case name, transition, baseline status and status, in the page's order. */
const rowsOf = (page: Page): Promise<string[][]> =>
  page
    .locator('.compare-cases tbody tr')
    .evaluateAll((rows) =>
      rows.map((r) => [
        r.querySelector('.case-name')?.textContent ?? '',
        r.getAttribute('data-transition') ?? '',
        r.getAttribute('data-baseline-status') ?? '',
        r.getAttribute('data-status') ?? '',
      ]),
    );

/** The summary's count per transition. */
const countsOf = async (page: Page): Promise<Record<string, number>> =>
  Object.fromEntries(
    await page
      .locator('#compare-summary [data-transition]')
      .evaluateAll((spans) =>
        spans.map((s) => [s.getAttribute('data-transition'), Number(s.getAttribute('data-count'))]),
      ),
  );

// A 404 or 409 from the API is also logged by Chromium as a failed resource load; that is the page working.
const unexpected = (problems: string[]): string[] => problems.filter((p) => !p.startsWith('Failed to load resource'));

describe('builder run page: compare with a baseline, in headless Chromium', () => {
  let rig: BuilderRig;
  let set: any;
  let cases: PromotedCase[];
  let baseline: any;
  let current: any;
  const runUrl = (run: string, query = ''): string =>
    `${rig.served.baseUrl}/builder/runs/${run}?agent=${rig.agent.id}${query}`;

  before(async () => {
    rig = await startBuilderRig(
      async (req) => {
        if (hold) await hold.acquire();
        return judge(req);
      },
      { EVAL_CONCURRENCY: '4' },
    );
    const { api } = rig;
    set = await api.evalSet('concierge', { name: 'regression watch' });
    cases = await promoteCases(api, 'concierge', set.id, CASES);
    failing = new Set([1, 2, 3]);
    baseline = await api.waitForEnd('concierge', (await api.trigger('concierge', set.id, { tags: ['nightly'] })).id);

    await api.send('delete', `/api/ai-agents/${rig.agent.id}/eval-sets/${set.id}/cases/${cases[4].id}`, 204);
    const added = await api.importRun('concierge', { session_input: { message: ADDED }, final_response: 'answer' });
    await api.promote('concierge', added.id, set.id, ADDED);
    failing = new Set([3, 5, 6, 7]);
    // The judge now fails other cases: judged afresh, not answered by the baseline's cached verdicts.
    const candidate = { tags: ['candidate'], no_cache: true };
    current = await api.waitForEnd('concierge', (await api.trigger('concierge', set.id, candidate)).id);
    assert.equal(baseline.status, 'completed');
    assert.equal(current.status, 'completed');
  });

  after(async () => {
    hold?.release(Infinity);
    await rig?.close();
  });

  it('offers the set’s other ended runs; choosing one shows the counts, then regressions first, page by page', async () => {
    const { page, problems } = await openWithToken(rig.browser, runUrl(current.id), rig.owner.token, {
      viewport: { width: 1280, height: 900 },
    });
    await page.waitForFunction(COMPARE_READY);
    await page.locator(`#baseline-runs option[value="${baseline.id}"]`).waitFor({ state: 'attached' });
    // The run itself is not offered; the baseline shows its tag and pass rate.
    assert.deepEqual(
      await page.locator('#baseline-runs option').evaluateAll((options) => options.map((o) => o.getAttribute('value'))),
      [baseline.id],
    );
    const offered = (await page.locator('#baseline-runs option').textContent()) ?? '';
    assert.match(offered, /completed · 94\.3% passed · #nightly$/);

    await page.locator('#baseline-select').selectOption(baseline.id);
    await page.waitForFunction(ROWS, LIMITS.pageDefault);
    assert.equal(new URL(page.url()).searchParams.get('baseline'), baseline.id);
    assert.equal(new URL(page.url()).searchParams.get('agent'), rig.agent.id);

    const firstPage = await rowsOf(page);
    assert.deepEqual(firstPage.slice(0, HEAD.length), HEAD);
    assert.ok(firstPage.slice(HEAD.length).every((r) => r[1] === 'still_passing'));
    assert.deepEqual(await countsOf(page), COUNTS);

    // Regressions are marked: their rows are tinted, unlike the others.
    const row = (i: number) => page.locator(`.compare-cases tbody tr[data-compare-case-id="${cases[i].id}"]`);
    const tint = (i: number): Promise<string> =>
      row(i).evaluate((r) => (globalThis as any).getComputedStyle(r).backgroundColor);
    assert.notEqual(await tint(5), await tint(1));
    assert.notEqual(await tint(5), await tint(10));
    assert.equal(await page.locator('.compare-cases tbody tr.regressed').count(), 3);

    // Pass rate 49/53 now, 50/53 before; the criterion deltas are the API's.
    assert.equal(await page.locator('.pass-rate-delta .big').textContent(), `${((100 * 49) / CASES).toFixed(1)}%`);
    const delta = Number(await page.locator('.pass-rate-delta').getAttribute('data-delta'));
    assert.ok(Math.abs(delta - (49 - 50) / CASES) < 1e-9, String(delta));
    const compared = (
      await rig.api.send(
        'get',
        `/api/ai-agents/${rig.agent.id}/eval-runs/${current.id}/compare?baseline=${baseline.id}`,
        200,
      )
    ).data;
    const shownCriteria = await page
      .locator('.deltas [data-criterion]')
      .evaluateAll((rows) => rows.map((r) => [r.getAttribute('data-criterion'), r.getAttribute('data-delta')]));
    assert.ok(shownCriteria.length > 0);
    assert.deepEqual(
      Object.fromEntries(shownCriteria),
      Object.fromEntries(
        Object.entries<any>(compared.summary.criteria).map(([k, v]) => [k, v.delta === null ? null : String(v.delta)]),
      ),
    );
    assert.match(
      (await row(1).locator('[data-criterion="final_response_match"]').textContent()) ?? '',
      /^Final response 0\.000 → 1\.000 \(\+1\.000\)$/,
    );

    await page.locator('#compare-box').screenshot({ path: path.join(ARTIFACTS, 'builder-compare.png') });
    await page.locator('#compare-more').click();
    await page.waitForFunction(ROWS, CASES + 1);
    assert.ok(await page.locator('#compare-more').isHidden());
    const all = await rowsOf(page);
    assert.deepEqual(all.slice(0, LIMITS.pageDefault), firstPage);
    const passing = all.filter((r) => r[1] === 'still_passing');
    assert.equal(passing.length, STILL_PASSING);
    assert.ok(passing.every((r) => r[2] === 'passed' && r[3] === 'passed'));
    assert.deepEqual(
      new Set(all.map((r) => r[0])),
      new Set([...cases.map((c) => c.message), ADDED]),
      'every case once, the removed one included',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('opens the comparison straight from a link with baseline=, by run id or as the last completed run', async () => {
    for (const chosen of [baseline.id, 'last-completed']) {
      const { page, problems } = await openWithToken(
        rig.browser,
        runUrl(current.id, `&baseline=${chosen}`),
        rig.owner.token,
      );
      await page.waitForFunction(ROWS, LIMITS.pageDefault);
      assert.equal(await page.locator('#baseline-select').inputValue(), chosen);
      assert.equal(await page.locator('#compare-summary').getAttribute('data-baseline-run-id'), baseline.id);
      assert.deepEqual((await rowsOf(page)).slice(0, HEAD.length), HEAD, chosen);
      assert.deepEqual(await countsOf(page), COUNTS, chosen);
      assert.deepEqual(problems, []);
      await page.close();
    }
  });

  it('shows the paired tests and, under each regressed case, its trajectory diff', async () => {
    const { page, problems } = await openWithToken(
      rig.browser,
      runUrl(current.id, `&baseline=${baseline.id}`),
      rig.owner.token,
    );
    await page.waitForFunction(ROWS, LIMITS.pageDefault);
    // 52 cases in both runs: cases 5, 6, 7 got worse, cases 1 and 2 better; 2·P(X ≤ 2 | 5, ½) = 1.
    const stats = page.locator('#compare-statistics');
    assert.match(
      (await stats.textContent()) ?? '',
      /^Paired over 52 cases: 3 worse, 2 better, exact McNemar p = 1\.00; pass-rate change −1\.9 pts \(95% interval .+\)\. 3 regressed, 2 improved, 0 flaky\.$/,
    );
    assert.equal(await stats.getAttribute('data-significant'), 'false');
    // The cases expect no tool calls and made none: each regressed row has an empty diff, the others none.
    assert.equal(await page.locator('.compare-cases tbody tr.regressed .trajectory-diff').count(), 3);
    assert.equal(await page.locator('.compare-cases tbody tr:not(.regressed) .trajectory-diff').count(), 0);
    assert.equal(
      await page.locator('.compare-cases tbody tr.regressed .trajectory-diff').first().getAttribute('data-missing'),
      '0',
    );
    assert.equal(await page.locator('.compare-cases tbody tr[data-verdict="regressed"]').count(), 3);
    assert.equal(
      await page.locator('.compare-cases tbody tr.regressed .trajectory-diff').first().textContent(),
      'Trajectory: no tool calls in either run.',
    );
    assert.deepEqual(problems, []);
    await page.close();
  });

  it('shows why a comparison cannot be made, and compares a live run once it ends', async () => {
    const missing = await openWithToken(rig.browser, runUrl(current.id, '&baseline=tag:nope'), rig.owner.token);
    await missing.page.waitForFunction(ERROR_SHOWN);
    assert.equal(await missing.page.locator('#compare-error').getAttribute('data-code'), 'baseline_not_found');
    assert.match((await missing.page.locator('#compare-error').textContent()) ?? '', /^Could not compare: /);
    assert.equal(await missing.page.locator('.compare-cases tbody').count(), 0);
    assert.equal(await missing.page.locator('[data-case-id]').count(), CASES, 'the run itself is still shown');
    assert.deepEqual(unexpected(missing.problems), []);
    await missing.page.close();

    hold = judgeGate();
    // Judged afresh (not from the cache), so the gate holds the run live until released.
    const live = await rig.api.trigger('concierge', set.id, { no_cache: true });
    try {
      // The live run as a baseline: refused with run_not_ended, shown in the page.
      const early = await openWithToken(rig.browser, runUrl(current.id, `&baseline=${live.id}`), rig.owner.token);
      await early.page.waitForFunction(ERROR_SHOWN);
      assert.equal(await early.page.locator('#compare-error').getAttribute('data-code'), 'run_not_ended');
      assert.deepEqual(unexpected(early.problems), []);
      await early.page.close();

      // The live run's own page: the control waits for the end, then compares with the baseline from the address.
      const watching = await openWithToken(rig.browser, runUrl(live.id, `&baseline=${current.id}`), rig.owner.token);
      await watching.page.locator('#compare-box').waitFor();
      assert.ok(await watching.page.locator('#baseline-select').isDisabled());
      assert.equal(await watching.page.locator('.compare-cases tbody').count(), 0);
      hold.release(Infinity);
      await watching.page.waitForFunction(ROWS, LIMITS.pageDefault, { timeout: 60_000 });
      // Same cases, same verdicts: four still failing, the rest still passing.
      const same = { regressed: 0, fixed: 0, still_failing: 4, new: 0, removed: 0, still_passing: CASES - 4 };
      assert.deepEqual(await countsOf(watching.page), same);
      assert.deepEqual(watching.problems, []);
      await watching.page.close();
    } finally {
      hold.release(Infinity);
      await rig.api.waitForEnd('concierge', live.id);
    }
  });
});
