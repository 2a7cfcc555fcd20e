'use strict';
// Renders a comparison of two runs (GET …/eval-runs/{run}/compare): the counts per transition, the pass-rate and
// criterion deltas, the paired tests, and one row per case with its baseline → now status and score deltas (a flaky
// case marked, a regressed one with its trajectory diff). Text only, never HTML.
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

  const pValue = (p) => (p < 0.001 ? 'p < 0.001' : `p = ${p.toPrecision(3)}`);

  /** The paired tests over the cases both runs scored: McNemar on pass/fail, the pass-rate change and its interval. */
  function statistics(data) {
    const stats = data.statistics;
    if (!stats) return null;
    const { worse, better, p_value } = stats.mcnemar;
    const delta = stats.pass_rate_delta;
    const interval = delta
      ? `; pass-rate change ${signed(delta.delta, points)} (95% interval ${signed(delta.interval.low, points)} to ${signed(delta.interval.high, points)})`
      : '';
    const verdicts = data.verdicts || {};
    return el(
      'p',
      {
        id: 'compare-statistics',
        class: `hint ${data.regression?.significant ? 'significant' : ''}`,
        'data-p-value': p_value,
        'data-significant': String(Boolean(data.regression?.significant)),
        'data-flaky': verdicts.flaky ?? 0,
      },
      `Paired over ${stats.paired_cases} cases: ${worse} worse, ${better} better, exact McNemar ${pValue(p_value)}` +
        `${data.regression?.significant ? ' (a significant regression)' : ''}${interval}. ` +
        `${verdicts.regressed ?? 0} regressed, ${verdicts.improved ?? 0} improved, ${verdicts.flaky ?? 0} flaky.`,
    );
  }

  /** The summary block: counts per transition, pass rate then and now, the paired tests, each criterion's mean. */
  function summary(data, baselineLink) {
    return el(
      'div',
      { id: 'compare-summary', 'data-baseline-run-id': data.baseline_run_id },
      el('p', { class: 'hint' }, 'Compared with ', baselineLink, '.'),
      counts(data.summary),
      passRate(data.summary.pass_rate),
      statistics(data),
      criteria(data.summary),
    );
  }

  const args = (value) => (value === undefined ? '(none)' : JSON.stringify(value));
  /** One row of a regressed case's trajectory diff: a matched pair (its argument changes), a missing or extra call. */
  function diffRow(r) {
    if (r.kind === 'missing') return `− missing ${r.tool_name} ${args(r.tool_args)}`;
    if (r.kind === 'extra') return `+ extra ${r.tool_name} ${args(r.tool_args)}`;
    const changes = r.argument_changes.map((c) => `${c.argument}: ${args(c.baseline)} → ${args(c.run)}`);
    return `= ${r.tool_name}${changes.length ? ` (${changes.join(', ')})` : ''}`;
  }

  /** A regressed case's calls, the baseline's aligned against this run's; nothing when the API gave none. */
  function trajectoryDiff(diff) {
    if (diff === undefined) return null;
    if (diff === null)
      return el('p', { class: 'trajectory-diff hint', text: 'No trajectory diff: a run has no expected trajectory.' });
    return el(
      'ul',
      {
        class: 'trajectory-diff',
        'data-missing': diff.missing,
        'data-extra': diff.extra,
        'data-changed': diff.changed,
      },
      diff.rows.length
        ? diff.rows.map((r) => el('li', { class: `diff-row ${r.kind}`, 'data-kind': r.kind, text: diffRow(r) }))
        : el('li', { class: 'diff-row none', text: 'Trajectory: no tool calls in either run.' }),
    );
  }

  const VERDICTS = { flaky: 'Flaky', improved: 'Improved', regressed: 'Regressed' };
  /** A flaky case (its repeats flipped in this run) is told apart from a regression. */
  const verdict = (c) =>
    c.verdict === 'flaky'
      ? el('span', { class: 'chip verdict flaky', 'data-verdict': c.verdict, text: VERDICTS.flaky })
      : null;

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
        'data-verdict': c.verdict || '',
      },
      el('td', { class: 'case-name', text: c.case_name }),
      el(
        'td',
        {},
        el('span', { class: `transition ${c.transition}`, text: TRANSITIONS[c.transition] || c.transition }),
        verdict(c),
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
        trajectoryDiff(c.trajectory_diff),
      ),
    );
  }

  /** The case table's empty frame; rows are appended page by page. */
  const cases = () =>
    table({ class: 'compare-cases' }, ['Case', 'Change', 'Baseline → this run', 'Criteria (baseline → this run)'], []);

  return { summary, row, cases };
})();
