'use strict';
// Renders a comparison of two runs (GET …/eval-runs/{run}/compare): the counts per transition, the pass-rate and
// criterion deltas, and one row per case with its baseline → now status and score deltas. Text only, never HTML.
window.CompareView = (() => {
  const { el, table, percent, score, CRITERIA } = window.Assay;

  /** Transitions in the order the API sorts cases, with their labels. */
  const TRANSITIONS = {
    regressed: 'Regressed',
    fixed: 'Fixed',
    still_failing: 'Still failing',
    new: 'New',
    removed: 'Removed',
    still_passing: 'Still passing',
  };

  const label = (key) => CRITERIA[key] || key;
  const rank = (key) => (key in CRITERIA ? Object.keys(CRITERIA).indexOf(key) : 99);
  const ordered = (criteria) =>
    Object.entries(criteria || {}).sort(([a], [b]) => rank(a) - rank(b) || (a < b ? -1 : 1));
  const direction = (delta) => (typeof delta !== 'number' || delta === 0 ? 'same' : delta > 0 ? 'up' : 'down');
  /** A signed delta: "+0.250", "−0.250", "0.000"; "–" when either side has no score. */
  const signed = (delta, format = score) =>
    typeof delta !== 'number' ? '–' : `${delta > 0 ? '+' : delta < 0 ? '−' : ''}${format(Math.abs(delta))}`;
  const points = (rate) => `${(rate * 100).toFixed(1)} pts`;
  const status = (value) =>
    el('span', { class: `badge ${value || 'absent'}`, 'data-status': value || 'absent', text: value || 'absent' });

  function counts(summary) {
    return el(
      'div',
      { class: 'transitions' },
      Object.entries(TRANSITIONS).map(([key, text]) =>
        el(
          'span',
          { class: `transition ${key}`, 'data-transition': key, 'data-count': summary[key] ?? 0 },
          el('strong', { text: String(summary[key] ?? 0) }),
          ` ${text.toLowerCase()}`,
        ),
      ),
    );
  }

  function passRate(rates) {
    return el(
      'p',
      { class: `pass-rate-delta ${direction(rates.delta)}`, 'data-delta': rates.delta },
      el('span', { class: 'label', text: 'Pass rate' }),
      el('span', { class: 'big', text: percent(rates.run) }),
      el('span', { class: 'hint', text: ` was ${percent(rates.baseline)}` }),
      el('span', { class: `delta ${direction(rates.delta)}`, text: ` ${signed(rates.delta, points)}` }),
    );
  }

  function criteria(summary) {
    const rows = ordered(summary.criteria).map(([key, entry]) =>
      el(
        'tr',
        { 'data-criterion': key, 'data-delta': entry.delta },
        el('td', {}, label(key), el('code', { class: 'key', text: key })),
        el('td', { class: 'num', text: score(entry.baseline) }),
        el('td', { class: 'num', text: score(entry.run) }),
        el('td', { class: `num delta ${direction(entry.delta)}`, text: signed(entry.delta) }),
      ),
    );
    if (rows.length === 0) return null;
    return table({ class: 'scores deltas' }, ['Criterion', 'Baseline', 'This run', 'Change'], rows);
  }

  /** The summary block: counts per transition, pass rate then and now, the mean score of each criterion. */
  function summary(data, baselineLink) {
    return el(
      'div',
      { id: 'compare-summary', 'data-baseline-run-id': data.baseline_run_id },
      el('p', { class: 'hint' }, 'Compared with ', baselineLink, '.'),
      counts(data.summary),
      passRate(data.summary.pass_rate),
      criteria(data.summary),
    );
  }

  const turn = (n) => (typeof n === 'number' ? `turn ${n}` : 'none');
  /** A case scored by turns (in either run): the turn that failed first in the baseline and in this run. */
  const firstFailedTurn = (first) =>
    first
      ? el('span', {
          class: 'chip first-failed-turn',
          'data-run': first.run ?? '',
          'data-baseline': first.baseline ?? '',
          text: `First failed turn ${turn(first.baseline)} → ${turn(first.run)}`,
        })
      : null;

  /** One case: its transition (regressions marked), the baseline → now status, and each criterion's change. */
  function row(c) {
    return el(
      'tr',
      {
        class: `compare-case ${c.transition}`,
        'data-compare-case-id': c.case_id,
        'data-transition': c.transition,
        'data-status': c.status || 'absent',
        'data-baseline-status': c.baseline_status || 'absent',
      },
      el('td', { class: 'case-name', text: c.case_name }),
      el(
        'td',
        {},
        el('span', { class: `transition ${c.transition}`, text: TRANSITIONS[c.transition] || c.transition }),
      ),
      el(
        'td',
        { class: 'statuses' },
        status(c.baseline_status),
        el('span', { class: 'arrow', text: '→' }),
        status(c.status),
      ),
      el(
        'td',
        { class: 'criteria-deltas' },
        firstFailedTurn(c.first_failed_turn),
        ordered(c.criteria)
          .filter(([, entry]) => entry.run !== null || entry.baseline !== null)
          .map(([key, entry]) =>
            el('span', {
              class: `chip delta ${direction(entry.delta)}`,
              'data-criterion': key,
              'data-delta': entry.delta,
              text: `${label(key)} ${score(entry.baseline)} → ${score(entry.run)} (${signed(entry.delta)})`,
            }),
          ),
      ),
    );
  }

  /** The case table's empty frame; rows are appended page by page. */
  const cases = () =>
    table({ class: 'compare-cases' }, ['Case', 'Change', 'Baseline → this run', 'Criteria (baseline → this run)'], []);

  return { summary, row, cases };
})();
