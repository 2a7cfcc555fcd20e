'use strict';
// Renders a conversation-scenario case: the scenario (starting prompt, plan, persona), then once scored the
// transcript turn by turn (each simulated user turn marked, with its persona_adherence verdict) and the task_success
// items the judge met or missed.
window.ScenarioView = (() => {
  const { el } = window.Assay;

  // A built-in persona is a name; a written one its description, behaviours and violation rubrics.
  function persona(value) {
    if (!value) return null;
    if (typeof value === 'string') return el('p', { class: 'persona', text: `Persona: ${value}` });
    const list = (heading, items) =>
      Array.isArray(items) && items.length
        ? [
            el('h5', { text: heading }),
            el(
              'ul',
              {},
              items.map((item) => el('li', { text: String(item) })),
            ),
          ]
        : [];
    return el(
      'div',
      { class: 'persona' },
      el('p', { text: `Persona: ${value.description || '(no description)'}` }),
      list('Behaviours', value.behaviours),
      list('Violation rubrics', value.violation_rubrics),
    );
  }

  function turnOf(turn) {
    const verdict = turn.criteria && turn.criteria.persona_adherence;
    const kept = verdict ? verdict.score === 1 : null;
    const note = verdict && verdict.detail && verdict.detail.justification;
    return el(
      'li',
      { class: 'exchange', 'data-turn': turn.turn },
      el(
        'div',
        { class: `says simulated-user${kept === false ? ' off-persona' : ''}`, 'data-simulated': 'true' },
        el('span', { class: 'who', text: `Simulated user · turn ${turn.turn}` }),
        kept === null
          ? null
          : el('span', {
              class: `flag ${kept ? 'pass' : 'fail'}`,
              'data-persona-kept': String(kept),
              text: kept ? 'kept to persona' : 'off persona',
            }),
        el('blockquote', { text: turn.user_message ?? '' }),
        note ? el('p', { class: 'hint', text: `Judge: ${note}` }) : null,
      ),
      el(
        'div',
        { class: 'says agent' },
        el('span', { class: 'who', text: 'Agent' }),
        el('blockquote', { text: turn.actual_response ?? '(no reply)' }),
      ),
    );
  }

  /** A scenario case: what the simulated user was to do, and once scored its transcript and task_success items. */
  function render(plan, result, parts) {
    const turns = result && Array.isArray(result.turns) ? result.turns : [];
    const task = result && result.criteria && result.criteria.task_success;
    return el(
      'div',
      { class: 'scenario' },
      el('h4', { text: 'Conversation scenario' }),
      el('blockquote', { text: plan.starting_prompt }),
      plan.conversation_plan ? el('p', { class: 'hint', text: `Plan: ${plan.conversation_plan}` }) : null,
      persona(plan.user_persona),
      turns.length
        ? [
            el('h4', { text: `Transcript (${turns.length} turns)` }),
            el('ol', { class: 'transcript', start: 0 }, turns.map(turnOf)),
          ]
        : null,
      task ? parts.rubrics(task, 'Task success') : null,
    );
  }

  return { render };
})();
