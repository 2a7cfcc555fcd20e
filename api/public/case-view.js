'use strict';
// Renders one case of a run: waiting (from the case) or scored (from its result), with every criterion's detail.
window.CaseView = (() => {
  const { el, table, score, CRITERIA } = window.Assay;

  const call = (c, mark) =>
    el(
      'li',
      { class: mark ? `call ${mark}` : 'call' },
      el('code', { text: c.tool_name }),
      el('span', { class: 'args', text: JSON.stringify(c.tool_args ?? {}) }),
      mark ? el('span', { class: `tag ${mark}`, text: mark }) : null,
    );
  const calls = (list, title) =>
    el(
      'div',
      { class: 'col' },
      el('h4', { text: title }),
      list.length ? el('ol', { class: 'calls' }, list) : el('p', { class: 'hint', text: 'no calls' }),
    );
  const inputOf = (sessionInput) =>
    sessionInput && typeof sessionInput.message === 'string' ? sessionInput.message : JSON.stringify(sessionInput);

  function trajectory(evalCase, entry) {
    const detail = entry && entry.applicable ? entry.detail : null;
    if (!detail) {
      const expected = (evalCase && evalCase.expected_trajectory) || [];
      const note = entry && entry.detail && entry.detail.reason ? entry.detail.reason : null;
      return el(
        'div',
        { class: 'pair' },
        calls(
          expected.map((c) => call(c)),
          'Expected trajectory',
        ),
        el(
          'div',
          { class: 'col' },
          el('h4', { text: 'Actual trajectory' }),
          el('p', { class: 'hint', text: note || (entry ? 'not applicable' : 'waiting') }),
        ),
      );
    }
    const expected = [
      ...detail.matched.map((c) => ({ ...c, mark: 'matched' })),
      ...detail.missing.map((c) => ({ ...c, mark: 'missing' })),
    ].sort((a, b) => a.expected_index - b.expected_index);
    const actual = [
      ...detail.matched.map((c) => ({ ...c, tool_args: c.actual_tool_args || c.tool_args, mark: 'matched' })),
      ...detail.extra.map((c) => ({ ...c, mark: 'extra' })),
    ].sort((a, b) => a.actual_index - b.actual_index);
    return el(
      'div',
      { class: 'pair trajectory' },
      calls(
        expected.map((c) => call(c, c.mark)),
        `Expected trajectory (${detail.mode || 'lcs'}) · ${detail.matched.length} matched, ${detail.missing.length} missing`,
      ),
      calls(
        actual.map((c) => call(c, c.mark)),
        `Actual trajectory · ${detail.extra.length} extra`,
      ),
    );
  }

  function responses(evalCase, result) {
    const expected = result ? result.expected_final_response : evalCase && evalCase.expected_final_response;
    const entry = result && result.criteria.final_response_match;
    const why = entry && entry.detail && Array.isArray(entry.detail.justifications) ? entry.detail.justifications : [];
    return el(
      'div',
      { class: 'pair' },
      el(
        'div',
        { class: 'col' },
        el('h4', { text: 'Expected final response' }),
        el('blockquote', { text: expected ?? '(none)' }),
      ),
      el(
        'div',
        { class: 'col' },
        el('h4', { text: 'Actual final response' }),
        el('blockquote', { text: result ? (result.actual_final_response ?? '(none)') : 'waiting' }),
        why.map((text) => el('p', { class: 'hint', text: `Judge: ${text}` })),
      ),
    );
  }

  function scores(result) {
    const rows = Object.entries(CRITERIA)
      .filter(([key]) => result.criteria[key])
      .map(([key, label]) => {
        const entry = result.criteria[key];
        const verdict = !entry.applicable ? 'n/a' : entry.passed ? 'pass' : 'fail';
        return el(
          'tr',
          { 'data-criterion': key },
          el('td', { text: label }),
          el('td', { class: 'num', text: score(entry.score) }),
          el('td', { class: 'num', text: entry.min_score === null ? '–' : score(entry.min_score) }),
          el('td', {}, el('span', { class: `flag ${verdict.replace('/', '')}`, text: verdict })),
        );
      });
    if (rows.length === 0) return null;
    return table({ class: 'scores' }, ['Criterion', 'Score', 'Minimum', 'Pass'], rows);
  }

  function rubrics(entry, heading = 'Rubrics') {
    if (!entry || !entry.applicable || !entry.detail || !Array.isArray(entry.detail.approved)) return null;
    const items = [
      ...entry.detail.approved.map((r) => ({ ...r, ok: true })),
      ...entry.detail.rejected.map((r) => ({ ...r, ok: false })),
    ].sort((a, b) => a.index - b.index);
    return el(
      'div',
      {},
      el('h4', { text: heading }),
      el(
        'ul',
        { class: 'rubrics' },
        items.map((r) =>
          el(
            'li',
            { class: r.ok ? 'ok' : 'no' },
            el('span', { class: `flag ${r.ok ? 'pass' : 'fail'}`, text: r.ok ? 'met' : 'missed' }),
            ` ${r.rubric}`,
            el('span', { class: 'hint', text: ` — ${r.justification}` }),
          ),
        ),
      ),
    );
  }

  function guardrails(entry) {
    const fired = entry && entry.detail && Array.isArray(entry.detail.guardrails) ? entry.detail.guardrails : [];
    if (fired.length === 0) return entry ? el('p', { class: 'hint guardrails', text: 'No guardrail fired.' }) : null;
    return el(
      'div',
      { class: 'guardrails' },
      el('h4', { text: 'Guardrails that fired' }),
      el(
        'ul',
        {},
        (entry.detail.events || []).map((e) =>
          el(
            'li',
            {},
            el('code', { text: e.guardrail }),
            e.stage ? ` at ${e.stage}` : '',
            e.detail
              ? el('span', {
                  class: 'hint',
                  text: ` — ${typeof e.detail === 'string' ? e.detail : JSON.stringify(e.detail)}`,
                })
              : '',
          ),
        ),
      ),
    );
  }

  const hasTurns = (result) => !!result && Array.isArray(result.turns) && result.turns.length > 0;

  // What a case's body shows below its scores: its turns when scored by turns (or waiting with several), else the
  // one turn's trajectory, responses, rubrics and guardrails as always.
  function detail(evalCase, result, criteria) {
    if (evalCase && evalCase.conversation_scenario)
      return window.ScenarioView.render(evalCase.conversation_scenario, result, { rubrics });
    if (hasTurns(result)) return window.TurnsView.render(result, evalCase, { trajectory, rubrics, guardrails });
    if (!result && evalCase && Array.isArray(evalCase.turns) && evalCase.turns.length > 1)
      return window.TurnsView.waiting(evalCase);
    return [
      trajectory(evalCase, criteria.tool_trajectory_avg_score),
      responses(evalCase, result),
      rubrics(criteria.rubric_based),
      guardrails(criteria.safety),
    ];
  }

  /** The row of a case: `result` absent means the case is still waiting. */
  function render(caseId, evalCase, result) {
    const state = result ? result.status : 'waiting';
    const name = result ? result.case_name : evalCase.name;
    const input = result ? result.session_input : evalCase.session_input;
    const criteria = result ? result.criteria : {};
    const turnsChip = hasTurns(result)
      ? el('span', { class: 'chip turns', 'data-turns': result.turns.length, text: window.TurnsView.headline(result) })
      : null;
    return el(
      'details',
      { class: `case ${state}`, 'data-case-id': caseId, 'data-state': state },
      el(
        'summary',
        {},
        el('span', { class: `badge ${state}`, text: state }),
        el('span', { class: 'case-name', text: name }),
        el(
          'span',
          { class: 'chips' },
          turnsChip,
          Object.entries(CRITERIA)
            .filter(([key]) => criteria[key] && criteria[key].applicable)
            .map(([key, label]) =>
              el('span', {
                class: `chip ${criteria[key].passed ? 'pass' : 'fail'}`,
                text: `${label} ${score(criteria[key].score)}`,
              }),
            ),
        ),
      ),
      el(
        'div',
        { class: 'case-body' },
        input ? el('h4', { text: 'Input' }) : null,
        input ? el('blockquote', { text: inputOf(input) }) : null,
        result && result.error ? el('p', { class: 'error', text: result.error }) : null,
        result && result.skip_reason
          ? el('p', { class: 'hint skip-reason', text: `Skipped: ${result.skip_reason}` })
          : null,
        result ? scores(result) : null,
        detail(evalCase, result, criteria),
      ),
    );
  }

  return { render };
})();
