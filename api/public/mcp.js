'use strict';
// The MCP page: the workspace's registered servers and the catalog, a page at a time ("More"), and the gateway's
// connection snippet for an agent.
(() => {
  const { el, apiAll, apiLinked, requireToken, showError, when } = window.Assay;
  // Rows per page; `?limit=` (1–500) overrides it.
  const PAGE = Math.min(500, Math.max(1, Number(new URLSearchParams(location.search).get('limit')) || 50));
  const $ = (id) => document.getElementById(id);

  /** Fills `tbody` from the `/api/v1` list at `path`, one page per click on `more`; resolves with the first page. */
  function pagedList(path, tbody, more, row) {
    let next = `${path}?limit=${PAGE}`;
    async function load() {
      more.disabled = true;
      const page = await apiLinked(next);
      tbody.append(...page.items.map(row));
      next = page.next;
      more.hidden = !next;
      more.disabled = false;
      return page.items;
    }
    more.addEventListener('click', () => load().catch((error) => showError(error.message)));
    return load();
  }

  const serverRow = (server) =>
    el(
      'tr',
      { 'data-server-id': server.id },
      el(
        'td',
        {},
        el('a', {
          class: 'server-name',
          href: `/builder/mcp/servers/${encodeURIComponent(server.id)}`,
          text: server.name,
        }),
      ),
      el('td', {}, el('span', { class: `badge ${server.status}`, text: server.status })),
      el('td', { text: server.transport }),
      el('td', { text: server.synced_at ? when(server.synced_at) : 'never' }),
      el('td', { class: 'hint', text: server.last_error || '' }),
    );

  const catalogRow = (entry) =>
    el(
      'tr',
      { 'data-catalog-name': entry.name },
      el('td', {}, el('strong', { text: entry.label }), el('code', { class: 'key', text: entry.name })),
      el('td', { text: entry.category }),
      el('td', { text: entry.transport }),
      el('td', { text: entry.required_secrets.join(', ') || '–' }),
      el('td', { class: 'hint', text: entry.description }),
    );

  async function gatewaySection() {
    const [agents, gateway] = await Promise.all([
      apiAll('/api/ai-agents'),
      fetch('/builder/gateway.json').then((res) => res.json()),
    ]);
    const select = $('gateway-agent');
    const base = $('gateway-base');
    select.append(...agents.map((agent) => el('option', { value: agent.id, text: agent.name })));
    base.value = gateway.base_url;
    const show = () => {
      const agent = agents.find((a) => a.id === select.value);
      $('snippets').replaceChildren(...(agent ? window.GatewaySnippet.render(base.value, agent) : []));
    };
    select.addEventListener('change', show);
    base.addEventListener('input', show);
  }

  async function main() {
    await requireToken();
    const servers = await pagedList('/api/v1/mcp-servers', $('servers'), $('servers-more'), serverRow);
    $('servers-empty').hidden = servers.length > 0;
    await pagedList('/api/v1/mcp-catalog', $('catalog'), $('catalog-more'), catalogRow);
    await gatewaySection();
    document.body.dataset.ready = 'true';
  }

  main().catch((error) => showError(error.message));
})();
