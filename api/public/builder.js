'use strict';
// The list page: pick an agent, see its eval sets with their latest runs, start a run.
(() => {
  const { el, api, apiAll, requireToken, showError, percent, when } = window.Assay;
  const select = document.getElementById('agent-select');
  const setsBox = document.getElementById('sets');

  const runRow = (agentId, run) =>
    el(
      'tr',
      { 'data-run-id': run.id },
      el(
        'td',
        {},
        el('a', {
          href: `/builder/runs/${encodeURIComponent(run.id)}?agent=${encodeURIComponent(agentId)}`,
          text: when(run.created_at),
        }),
      ),
      el('td', {}, el('span', { class: `badge ${run.status}`, text: run.status })),
      el('td', { text: `${run.scored_cases}/${run.total_cases ?? '?'}` }),
      el('td', { text: run.summary ? percent(run.summary.pass_rate) : '–' }),
      el('td', { text: run.mode }),
    );

  async function startRun(agentId, set, button) {
    button.disabled = true;
    try {
      const { data: run } = await api(
        `/api/ai-agents/${encodeURIComponent(agentId)}/eval-sets/${encodeURIComponent(set.id)}/run`,
        { method: 'POST', body: {} },
      );
      location.assign(`/builder/runs/${encodeURIComponent(run.id)}?agent=${encodeURIComponent(agentId)}`);
    } catch (error) {
      showError(`Could not start a run of ${set.name}: ${error.message}`);
      button.disabled = false;
    }
  }

  async function setCard(agentId, set) {
    const { data: runs } = await api(
      `/api/ai-agents/${encodeURIComponent(agentId)}/eval-sets/${encodeURIComponent(set.id)}/runs?limit=20`,
    );
    const button = el('button', { type: 'button', text: 'Run now' });
    button.addEventListener('click', () => startRun(agentId, set, button));
    return el(
      'article',
      { class: 'card set', 'data-set-id': set.id },
      el('div', { class: 'set-head' }, el('h2', { text: set.name }), button),
      set.description ? el('p', { class: 'hint', text: set.description }) : null,
      runs.length === 0
        ? el('p', { class: 'hint', text: 'No runs yet.' })
        : el(
            'table',
            { class: 'runs' },
            el(
              'thead',
              {},
              el(
                'tr',
                {},
                ['Started', 'Status', 'Scored', 'Pass rate', 'Mode'].map((h) => el('th', { text: h })),
              ),
            ),
            el(
              'tbody',
              {},
              runs.map((run) => runRow(agentId, run)),
            ),
          ),
    );
  }

  async function showAgent(agentId) {
    setsBox.replaceChildren(el('p', { class: 'hint', text: 'Loading…' }));
    const sets = await apiAll(`/api/ai-agents/${encodeURIComponent(agentId)}/eval-sets`);
    const cards = await Promise.all(sets.map((set) => setCard(agentId, set)));
    setsBox.replaceChildren(
      ...(cards.length ? cards : [el('p', { class: 'hint', text: 'This agent has no eval sets.' })]),
    );
  }

  async function main() {
    await requireToken();
    const agents = await apiAll('/api/ai-agents');
    select.append(...agents.map((agent) => el('option', { value: agent.id, text: `${agent.name} (${agent.model})` })));
    document.getElementById('picker').hidden = false;
    const chosen = new URLSearchParams(location.search).get('agent');
    select.addEventListener('change', () => {
      if (!select.value) return;
      history.replaceState(null, '', `?agent=${encodeURIComponent(select.value)}`);
      showAgent(select.value).catch((error) => showError(error.message));
    });
    if (chosen && agents.some((agent) => agent.id === chosen)) {
      select.value = chosen;
      await showAgent(chosen);
    }
  }

  main().catch((error) => showError(error.message));
})();
