'use strict';
// "Compare with…" on the run page: choose another ended run of the set (or the last completed one) as the baseline
// and see every case's transition, regressions first. The choice lives in the address (`&baseline=`), so a link
// opens the comparison directly.
window.Compare = (() => {
  const { el, api, percent, when } = window.Assay;
  const ENDED = ['completed', 'failed', 'cancelled'];
  const RUNS_PAGE = 100;

  let ctx = null;
  let isEnded = false;
  let loads = 0;
  let runsCursor = null;

  const $ = (id) => document.getElementById(id);
  const runHref = (runId) => `/builder/runs/${encodeURIComponent(runId)}?agent=${encodeURIComponent(ctx.agentId)}`;
  const chosen = () => new URLSearchParams(location.search).get('baseline') || '';

  function keepInAddress(baseline) {
    const params = new URLSearchParams(location.search);
    if (baseline) params.set('baseline', baseline);
    else params.delete('baseline');
    history.replaceState(null, '', `${location.pathname}?${params}`);
  }

  const runLabel = (run) =>
    [
      when(run.created_at),
      run.status,
      run.summary ? `${percent(run.summary.pass_rate)} passed` : 'no summary',
      ...(run.tags || []).map((tag) => `#${tag}`),
    ].join(' · ');

  /** Adds the set's ended runs (other than this one), newest first, one page at a time. */
  async function moreRuns() {
    const cursor = runsCursor ? `&cursor=${encodeURIComponent(runsCursor)}` : '';
    const page = await api(`${ctx.setPath}/runs?limit=${RUNS_PAGE}${cursor}`);
    const group = $('baseline-runs');
    for (const run of page.data) {
      if (run.id === ctx.runId || !ENDED.includes(run.status)) continue;
      $('baseline-select')
        .querySelector(`option[value="${CSS.escape(run.id)}"]`)
        ?.remove();
      group.append(el('option', { value: run.id, 'data-status': run.status, text: runLabel(run) }));
    }
    runsCursor = page.next_cursor;
    $('baseline-older').hidden = !runsCursor;
    showChoice(chosen());
  }

  /** Makes sure the select shows `baseline` (a uuid or `tag:x` from the address may not be among the listed runs). */
  function showChoice(baseline) {
    const select = $('baseline-select');
    if (baseline && !select.querySelector(`option[value="${CSS.escape(baseline)}"]`))
      select.append(el('option', { value: baseline, text: baseline }));
    select.value = baseline;
  }

  function fail(error, doing = 'compare') {
    const box = $('compare-error');
    box.textContent = `Could not ${doing}: ${error.message}`;
    box.dataset.code = error.code || '';
    box.hidden = false;
  }

  function clear() {
    $('compare').replaceChildren();
    $('compare-error').hidden = true;
    $('compare-more').hidden = true;
  }

  async function page(baseline, cursor, load) {
    const more = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const { data } = await api(`${ctx.runPath}/compare?baseline=${encodeURIComponent(baseline)}${more}`);
    if (load !== loads) return;
    if (!cursor) {
      const link = el('a', { href: runHref(data.baseline_run_id), text: `run ${data.baseline_run_id.slice(0, 8)}` });
      $('compare').replaceChildren(window.CompareView.summary(data, link), window.CompareView.cases());
      if (data.cases.length === 0) $('compare').append(el('p', { class: 'hint', text: 'Neither run has cases.' }));
    }
    $('compare')
      .querySelector('.compare-cases tbody')
      .append(...data.cases.map(window.CompareView.row));
    const button = $('compare-more');
    button.hidden = !data.next_cursor;
    button.onclick = () => {
      button.disabled = true;
      page(baseline, data.next_cursor, load)
        .catch((error) => fail(error))
        .finally(() => (button.disabled = false));
    };
  }

  /** Loads the comparison with `baseline` from its first page (a newer choice makes an older answer stale). */
  function compareWith(baseline) {
    const load = ++loads;
    clear();
    if (!baseline) return;
    $('compare').append(el('p', { class: 'hint', text: 'Comparing…' }));
    page(baseline, null, load).catch((error) => {
      if (load !== loads) return;
      $('compare').replaceChildren();
      fail(error);
    });
  }

  /** Shows the control for a run; it is enabled once the run has ended (`ended`). */
  function init(options) {
    const setPath = `/api/ai-agents/${encodeURIComponent(options.agentId)}/eval-sets/${encodeURIComponent(options.setId)}`;
    ctx = { ...options, setPath };
    const select = $('baseline-select');
    select.addEventListener('change', () => {
      keepInAddress(select.value);
      compareWith(select.value);
    });
    const listFailed = (error) => fail(error, 'list the runs of this set');
    $('baseline-older').addEventListener('click', () => moreRuns().catch(listFailed));
    showChoice(chosen());
    $('compare-box').hidden = false;
    moreRuns().catch(listFailed);
    if (options.ended) ended();
    else $('compare-hint').textContent = 'Comparing is possible once this run has ended.';
  }

  /** The run has ended: the control is enabled and a baseline from the address is compared at once. */
  function ended() {
    if (!ctx || isEnded) return;
    isEnded = true;
    $('baseline-select').disabled = false;
    $('compare-hint').textContent =
      'Regressions first, then fixed, still failing, new, removed and still passing cases.';
    if (chosen()) compareWith(chosen());
  }

  return { init, ended };
})();
