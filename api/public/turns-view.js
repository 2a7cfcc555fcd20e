'use strict';
// Renders the turns of a multi-turn case: a table of every turn's scores (the turn that failed first marked), then
// each turn's messages, trajectory, rubrics and guardrails. A one-turn result has no turns and never comes here.
window.TurnsView = (() => {
  const { el, table, score, CRITERIA } = window.Assay;

  const label = (key) => CRITERIA[key] || key;
  const rank = (key) => (key in CRITERIA ? Object.keys(CRITERIA).indexOf(key) : 99);
  const applies = (entry) => entry && entry.applicable !== false;
  const keysOf = (turns) =>
    [...new Set(turns.flatMap((t) => Object.keys(t.criteria).filter((key) => applies(t.criteria[key]))))].sort(
      (a, b) => rank(a) - rank(b) || (a < b ? -1 : 1),
    );
  const reasonOf = (turn) => {
    const withReason = Object.values(turn.criteria).find((c) => c && c.detail && typeof c.detail.reason === 'string');
    return withReason ? withReason.detail.reason : null;
  };
  const judged = (entry) =>
    entry && entry.detail && Array.isArray(entry.detail.justifications) ? entry.detail.justifications : [];
  const verdict = (passed) => el('span', { class: `flag ${passed ? 'pass' : 'fail'}`, text: passed ? 'pass' : 'fail' });
  const title = (turn) => `Turn ${turn.turn}${turn.status === 'scored' ? '' : ` · ${turn.status}`}`;

  /** The headline of a multi-turn result, e.g. "4 turns · 2 passed · turn 1 failed first". */
  function headline(result) {
    const passed = result.turns.filter((t) => t.passed).length;
    const first = result.first_failed_turn;
    const failed = typeof first === 'number' ? ` · turn ${first} failed first` : ' · no turn failed';
    return `${result.turns.length} turns · ${passed} passed${failed}`;
  }

  function overview(result) {
    const keys = keysOf(result.turns);
    const rows = result.turns.map((turn) =>
      el(
        'tr',
        {
          class: `turn-row ${turn.passed ? 'passed' : 'failed'}${turn.turn === result.first_failed_turn ? ' first-failed' : ''}`,
          'data-turn': turn.turn,
          'data-turn-status': turn.status,
          'data-passed': String(turn.passed),
        },
        el('td', { class: 'num', text: String(turn.turn) }),
        el('td', { text: turn.status === 'scored' ? 'scored' : `${turn.status}: ${reasonOf(turn) || ''}` }),
        el('td', { class: 'turn-message', text: turn.user_message ?? '–' }),
        keys.map((key) => {
          const entry = turn.criteria[key];
          if (!applies(entry)) return el('td', { class: 'num', text: 'n/a' });
          return el('td', {
            class: `num ${entry.passed ? 'pass' : 'fail'}`,
            'data-criterion': key,
            text: score(entry.score),
          });
        }),
        el('td', {}, verdict(turn.passed)),
      ),
    );
    return table({ class: 'turns-table' }, ['Turn', 'Status', 'User message', ...keys.map(label), 'Pass'], rows);
  }

  // The trajectory view wants the single-turn shape: a missing or extra turn's entry carries only a reason.
  const trajectoryEntry = (entry) =>
    entry && { ...entry, applicable: applies(entry) && !!entry.detail && Array.isArray(entry.detail.matched) };

  function turnDetail(turn, caseTurn, parts) {
    const criteria = turn.criteria;
    return el(
      'details',
      { class: `turn ${turn.passed ? 'passed' : 'failed'}`, 'data-turn-detail': turn.turn, open: !turn.passed },
      el('summary', {}, el('strong', { text: title(turn) }), ' ', verdict(turn.passed)),
      el(
        'div',
        { class: 'pair' },
        el(
          'div',
          { class: 'col' },
          el('h4', { text: 'User message' }),
          el('blockquote', { text: turn.user_message ?? '(none)' }),
        ),
        el(
          'div',
          { class: 'col' },
          el('h4', { text: 'Expected response' }),
          el('blockquote', { text: turn.expected_response ?? '(none)' }),
        ),
      ),
      el('h4', { text: 'Actual response' }),
      el('blockquote', { class: 'actual', text: turn.actual_response ?? `(${reasonOf(turn) || 'none'})` }),
      judged(criteria.final_response_match).map((text) => el('p', { class: 'hint', text: `Judge: ${text}` })),
      parts.trajectory(caseTurn || {}, trajectoryEntry(criteria.tool_trajectory_avg_score)),
      parts.rubrics(criteria.rubric_based && { applicable: true, ...criteria.rubric_based }),
      criteria.safety ? parts.guardrails(criteria.safety) : null,
    );
  }

  /** A scored multi-turn result: the headline, the table of turns, each turn's detail, the conversation rubrics. */
  function render(result, evalCase, parts) {
    const caseTurns = (evalCase && evalCase.turns) || [];
    const rubric = result.criteria.rubric_based;
    const conversation = rubric && rubric.detail && rubric.detail.conversation;
    return el(
      'div',
      { class: 'turns', 'data-first-failed-turn': result.first_failed_turn ?? '' },
      el('h4', { text: 'Turns' }),
      el('p', { class: 'turns-headline', text: headline(result) }),
      overview(result),
      result.turns.map((turn) => turnDetail(turn, caseTurns[turn.turn], parts)),
      conversation
        ? el(
            'div',
            { class: 'conversation-rubrics' },
            parts.rubrics({ applicable: true, detail: conversation.detail }, 'Conversation rubrics'),
          )
        : null,
    );
  }

  /** A multi-turn case still waiting: its turns' user messages in order. */
  function waiting(evalCase) {
    return el(
      'div',
      { class: 'turns' },
      el('h4', { text: `Turns (${evalCase.turns.length})` }),
      el(
        'ol',
        { class: 'turn-messages', start: 0 },
        evalCase.turns.map((t) => el('li', { text: t.user_message })),
      ),
    );
  }

  return { render, waiting, headline };
})();
