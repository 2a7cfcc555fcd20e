'use strict';
// One MCP server: its status and health history, its tools with their approval badges; choosing a tool (`?tool=`)
// shows its review (a quarantined tool's diff, evaluations and approval) and the playground.
(() => {
  const { el, table, api, apiLinked, requireToken, showError, when } = window.Assay;
  const serverId = decodeURIComponent(location.pathname.split('/').pop());
  const serverPath = `/api/v1/mcp-servers/${encodeURIComponent(serverId)}`;
  const $ = (id) => document.getElementById(id);
  const chosenTool = () => new URLSearchParams(location.search).get('tool');

  function overview(server) {
    $('server-crumb').textContent = server.name;
    document.title = `Assay · ${server.name}`;
    $('server-overview').replaceChildren(
      el(
        'div',
        { class: 'set-head' },
        el('h2', { text: server.name }),
        el('span', { id: 'server-status', class: `badge ${server.status}`, text: server.status }),
      ),
      el(
        'p',
        { class: 'hint' },
        `${server.transport}${server.config.url ? ` · ${server.config.url}` : ''} · tools synced ${server.synced_at ? when(server.synced_at) : 'never'}`,
      ),
      ...(server.last_error ? [el('p', { class: 'error', text: server.last_error })] : []),
    );
  }

  function health(report) {
    const rows = report.checks.map((check) =>
      el(
        'tr',
        { 'data-check-status': check.status },
        el('td', { text: when(check.checked_at) }),
        el('td', {}, el('span', { class: `badge ${check.status}`, text: check.status })),
        el('td', { class: 'num', text: check.latency_ms === null ? '–' : `${check.latency_ms} ms` }),
        el('td', { class: 'hint', text: check.message || '' }),
      ),
    );
    $('health').replaceChildren(
      el('h2', { text: 'Health' }),
      el(
        'p',
        { class: 'hint' },
        `Checked every ${report.health_check_interval_seconds} s · ${report.consecutive_failures} failure(s) in a row`,
      ),
      rows.length
        ? table({ class: 'health-checks' }, ['Checked', 'Status', 'Latency', 'Message'], rows)
        : el('p', { class: 'hint', text: 'No scheduled check has run yet.' }),
    );
  }

  function toolRow(tool) {
    const link = el('a', { href: `?tool=${encodeURIComponent(tool.name)}`, class: 'tool-name', text: tool.name });
    link.addEventListener('click', (event) => {
      event.preventDefault();
      history.replaceState(null, '', `?tool=${encodeURIComponent(tool.name)}`);
      showTool(tool.name).catch((error) => showError(error.message));
    });
    return el(
      'tr',
      { 'data-tool': tool.name, 'data-status': tool.status, class: tool.status },
      el('td', {}, link, tool.title ? el('span', { class: 'hint tool-title', text: ` ${tool.title}` }) : null),
      el('td', {}, el('span', { class: `badge ${tool.status}`, text: tool.status })),
      el('td', { class: 'hint', text: tool.description }),
    );
  }

  async function loadTools() {
    const tools = [];
    for (let next = `${serverPath}/tools?limit=500`; next;) {
      const page = await apiLinked(next);
      tools.push(...page.items);
      next = page.next;
    }
    $('tools').replaceChildren(...tools.map(toolRow));
    if (tools.length === 0)
      $('tools').append(el('tr', {}, el('td', { colspan: 3, class: 'hint', text: 'No tools synced.' })));
  }

  async function showTool(name) {
    const view = await api(`${serverPath}/tools/${encodeURIComponent(name)}`);
    for (const row of $('tools').querySelectorAll('tr')) row.classList.toggle('chosen', row.dataset.tool === name);
    window.ToolReview.show($('tool-review'), serverPath, view, async () => {
      await loadTools();
      await showTool(name);
    });
    window.Playground.show($('playground'), serverPath, view);
  }

  async function main() {
    await requireToken();
    const [server, report] = await Promise.all([api(serverPath), api(`${serverPath}/health`)]);
    overview(server);
    health(report);
    await loadTools();
    if (chosenTool()) await showTool(chosenTool());
    document.body.dataset.ready = 'true';
  }

  main().catch((error) => showError(error.message));
})();
