'use strict';
// One run: every case starts as waiting and turns passed, failed or error as its result arrives over /ws.
(() => {
  const { el, api, apiAll, requireToken, showError, percent, score, token, forgetToken, CRITERIA } = window.Assay;
  const runId = decodeURIComponent(location.pathname.split('/').pop());
  const runPathOf = (agentId) => `/api/ai-agents/${encodeURIComponent(agentId)}/eval-runs/${encodeURIComponent(runId)}`;
  let agentId = new URLSearchParams(location.search).get('agent');
  let runPath = runPathOf(agentId);
  const casesBox = document.getElementById('cases');
  const cases = new Map();
  const results = new Map();
  let total = 0;
  let ended = false;
  let retryMs = 500;

  function setProgress(scored, outOf) {
    total = outOf ?? total;
    const done = Math.max(scored, results.size);
    const node = document.getElementById('progress');
    node.textContent = `${done}/${total}`;
    node.dataset.scored = String(done);
    node.dataset.total = String(total);
    document.getElementById('progress-bar').style.width = total ? `${Math.min(100, (100 * done) / total)}%` : '0';
  }

  function setStatus(status) {
    const badge = document.getElementById('run-status');
    badge.textContent = status;
    badge.className = `badge ${status}`;
    badge.dataset.status = status;
  }

  const ordered = (scores) => Object.entries(scores).sort(([a], [b]) => rank(a) - rank(b));
  const rank = (key) => (key in CRITERIA ? Object.keys(CRITERIA).indexOf(key) : 99);

  function showSummary(summary) {
    if (!summary) return;
    const box = document.getElementById('summary');
    const counts = summary.counts;
    box.replaceChildren(
      el(
        'div',
        { class: 'summary-head' },
        el('span', { class: 'big', 'data-pass-rate': summary.pass_rate, text: percent(summary.pass_rate) }),
        el('span', { class: 'label', text: 'pass rate' }),
        el('span', {
          class: 'counts',
          'data-counts': JSON.stringify(counts),
          text: `${counts.passed} passed · ${counts.failed} failed · ${counts.error} error${counts.skipped ? ` · ${counts.skipped} skipped` : ''} · ${counts.total} total`,
        }),
      ),
      el(
        'table',
        { class: 'scores avg' },
        el('thead', {}, el('tr', {}, el('th', { text: 'Criterion' }), el('th', { text: 'Average score' }))),
        el(
          'tbody',
          {},
          ordered(summary.avg_score).map(([key, value]) =>
            el(
              'tr',
              { 'data-criterion': key },
              el('td', {}, CRITERIA[key] || key, el('code', { class: 'key', text: key })),
              el('td', { class: 'num', 'data-value': value === null ? '' : value, text: score(value) }),
            ),
          ),
        ),
      ),
    );
    box.hidden = false;
  }

  function place(caseId) {
    const row = window.CaseView.render(caseId, cases.get(caseId), results.get(caseId));
    const current = casesBox.querySelector(`[data-case-id="${CSS.escape(caseId)}"]`);
    if (current) {
      row.open = current.open;
      current.replaceWith(row);
    } else {
      casesBox.append(row);
    }
  }

  function applyResult(result) {
    results.set(result.case_id, result);
    place(result.case_id);
  }

  function applyRun(run) {
    setStatus(run.status);
    setProgress(run.scored_cases, run.total_cases ?? cases.size);
    if (['completed', 'failed', 'cancelled'].includes(run.status)) finish(run.status, run.summary, run.error);
  }

  function finish(status, summary, error) {
    ended = true;
    window.Compare.ended();
    setStatus(status);
    showSummary(summary);
    if (error) {
      const box = document.getElementById('run-error');
      box.textContent = error;
      box.hidden = false;
    }
    document.getElementById('live').textContent = 'done';
  }

  const handlers = {
    // A snapshot holds the first page of results; the rest come from the paged API (merged by case id, so a result
    // that also arrives over the socket is shown once).
    snapshot(message) {
      message.results.forEach(applyResult);
      applyRun(message.run);
      if (message.next_cursor)
        apiAll(`${runPath}/results`, message.next_cursor)
          .then((rest) => {
            rest.forEach(applyResult);
            setProgress(results.size, total);
          })
          .catch((error) => showError(error.message));
    },
    progress(message) {
      setProgress(message.scored, message.total);
    },
    case_result(message) {
      applyResult(message.result);
      setProgress(results.size, total);
    },
    run_status(message) {
      finish(message.status, message.summary, message.error);
    },
    error(message) {
      showError(`Live updates: ${message.message}`);
    },
  };

  // The token travels as a subprotocol (browsers cannot set headers on a WebSocket); never in the URL.
  function connect() {
    const live = document.getElementById('live');
    const socket = new WebSocket(`${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`, [
      'assay.v1',
      `assay.bearer.${token()}`,
    ]);
    socket.addEventListener('open', () => {
      retryMs = 500;
      live.textContent = 'live';
      socket.send(JSON.stringify({ type: 'subscribe', run_id: runId }));
    });
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.run_id && message.run_id !== runId) return;
      const handle = handlers[message.type];
      if (handle) handle(message);
      if (ended) socket.close(1000);
    });
    socket.addEventListener('close', (event) => {
      if (ended) return;
      // 4401: the token was revoked or expired; reconnecting with it would only be refused.
      if (event.code === 4401) {
        forgetToken();
        live.textContent = 'stopped';
        showError('Live updates stopped: the token was revoked or has expired. Reload the page to enter another.');
        return;
      }
      live.textContent = 'reconnecting';
      setTimeout(connect, retryMs);
      retryMs = Math.min(retryMs * 2, 10_000);
    });
  }

  // A link without ?agent=: the run is looked up among the workspace's agents, then the address gets ?agent=.
  async function findAgentOfRun() {
    for (const agent of await apiAll('/api/ai-agents')) {
      const found = await api(runPathOf(agent.id)).then(
        () => true,
        () => false,
      );
      if (found) return agent.id;
    }
    throw new Error(`No agent of this workspace has run ${runId}: open it from the run list of /builder.`);
  }

  async function main() {
    await requireToken();
    if (!agentId) {
      agentId = await findAgentOfRun();
      runPath = runPathOf(agentId);
      history.replaceState(null, '', `${location.pathname}?agent=${encodeURIComponent(agentId)}`);
    }
    document.getElementById('back').href = `/builder?agent=${encodeURIComponent(agentId)}`;
    const [{ data: run }, runCases] = await Promise.all([api(runPath), apiAll(`${runPath}/cases`)]);
    document.getElementById('run-title').textContent = `Run ${run.id.slice(0, 8)} · ${run.mode}`;
    for (const evalCase of runCases) {
      cases.set(evalCase.id, evalCase);
      place(evalCase.id);
    }
    document.getElementById('overview').hidden = false;
    applyRun(run);
    window.Compare.init({ agentId, runId, runPath, setId: run.eval_set_id, ended });
    if (!ended) connect();
    else (await apiAll(`${runPath}/results`)).forEach(applyResult);
  }

  main().catch((error) => showError(error.message));
})();
