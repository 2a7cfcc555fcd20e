'use strict';
// A tool's review on the server page: its status and definition hash; for a quarantined tool the diff of its
// definition against the approved one (old beside new), "Evaluate before approving" (live runs of every linked
// agent's eval sets with the candidate) with those runs' results, and "Approve" (of the reviewed hash).
window.ToolReview = (() => {
  const { el, table, api, percent, when } = window.Assay;
  const ENDED = ['completed', 'failed', 'cancelled'];
  const POLL_MS = 2000;
  let poll = null;

  const pretty = (value) =>
    value === undefined ? '(not set)' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

  const diffTable = (diff) =>
    table(
      { class: 'tool-diff' },
      ['Field', 'Approved', 'Now'],
      diff.map((change) =>
        el(
          'tr',
          { 'data-field': change.field },
          el('td', {}, el('code', { text: change.field })),
          el('td', { class: 'old' }, el('pre', { text: pretty(change.old) })),
          el('td', { class: 'new' }, el('pre', { text: pretty(change.new) })),
        ),
      ),
    );

  const runsTable = (runs) =>
    table(
      { class: 'evaluation-runs' },
      ['Run', 'Status', 'Scored', 'Pass rate'],
      runs.map((run) =>
        el(
          'tr',
          { 'data-run-id': run.id, 'data-status': run.status },
          el(
            'td',
            {},
            el('a', {
              href: `/builder/runs/${encodeURIComponent(run.id)}?agent=${encodeURIComponent(run.agent_id)}`,
              text: when(run.created_at),
            }),
          ),
          el('td', {}, el('span', { class: `badge ${run.status}`, text: run.status })),
          el('td', { class: 'num', text: `${run.scored_cases}/${run.total_cases ?? '?'}` }),
          el('td', { class: 'num pass-rate', text: run.summary ? percent(run.summary.pass_rate) : '–' }),
        ),
      ),
    );

  /** A button that runs `action`, showing its error beside it; disabled while it runs. */
  function actionButton(id, label, action, box) {
    const button = el('button', { type: 'button', id, text: label });
    button.addEventListener('click', async () => {
      button.disabled = true;
      box.querySelector('.review-error').hidden = true;
      try {
        await action();
      } catch (error) {
        const shown = box.querySelector('.review-error');
        shown.textContent = error.message;
        shown.dataset.code = error.code || '';
        shown.hidden = false;
        button.disabled = false;
      }
    });
    return button;
  }

  /** Renders `view` (GET …/tools/{tool}) into `box`; `reload` re-reads the tool and the list after a change. */
  function show(box, serverPath, view, reload) {
    clearTimeout(poll);
    const toolPath = `${serverPath}/tools/${encodeURIComponent(view.name)}`;
    const quarantined = view.status === 'quarantined';
    const evaluate = async () => {
      await api(`${toolPath}/approval-evaluations`, { method: 'POST' });
      await reload();
    };
    const approve = async () => {
      await api(`${toolPath}/approve`, { method: 'POST', body: { hash: view.hash } });
      await reload();
    };
    box.dataset.tool = view.name;
    box.dataset.status = view.status;
    box.replaceChildren(
      el(
        'div',
        { class: 'set-head' },
        el('h2', { text: view.name }),
        el('span', { class: `badge ${view.status}`, id: 'review-status', text: view.status }),
      ),
      el(
        'p',
        { class: 'hint' },
        'Definition hash ',
        el('code', { text: view.hash.slice(0, 16) }),
        view.approved_hash ? '' : ' · never approved',
      ),
      quarantined
        ? el(
            'div',
            { class: 'review' },
            el('p', { text: view.approved_hash ? 'Changed since it was approved:' : 'New since the last approval:' }),
            diffTable(view.diff),
            el(
              'div',
              { class: 'review-actions' },
              actionButton('evaluate-tool', 'Evaluate before approving', evaluate, box),
              actionButton('approve-tool', 'Approve this definition', approve, box),
            ),
          )
        : el('p', { class: 'hint', text: 'Approved: flows, agent runs and the gateway use it.' }),
      el('p', { class: 'error review-error', hidden: true }),
      ...(view.evaluation_runs.length
        ? [
            el(
              'div',
              { class: 'evaluations' },
              el('h3', { text: 'Evaluations of this definition' }),
              runsTable(view.evaluation_runs),
            ),
          ]
        : []),
    );
    box.hidden = false;
    // Live runs end on their own: re-read the view until they have, while this tool is shown.
    if (view.evaluation_runs.some((run) => !ENDED.includes(run.status)))
      poll = setTimeout(() => {
        if (box.dataset.tool === view.name) reload().catch(() => undefined);
      }, POLL_MS);
  }

  return { show };
})();
