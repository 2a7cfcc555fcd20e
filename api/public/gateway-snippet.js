'use strict';
// The gateway's connection snippets for common MCP clients. They carry a placeholder for the token (an environment
// variable or the client's own prompt), never a token: the page has the builder's token and must not print it.
window.GatewaySnippet = (() => {
  const { el } = window.Assay;
  const TOKEN_ENV = 'ASSAY_TOKEN';

  const endpoint = (base, agent) => `${base.replace(/\/+$/, '')}/mcp/agents/${encodeURIComponent(agent.id)}`;
  const serverName = (agent) => `assay-${agent.name.toLowerCase().replace(/[^a-z0-9_-]+/g, '-')}`;
  const json = (value) => JSON.stringify(value, null, 2);

  /** [client, file or where it goes, text] for each client. */
  function snippets(base, agent) {
    const url = endpoint(base, agent);
    const name = serverName(agent);
    return [
      [
        'claude-code',
        'Claude Code (shell)',
        `claude mcp add --transport http ${name} ${url} \\\n  --header "Authorization: Bearer $${TOKEN_ENV}"`,
      ],
      [
        'cursor',
        'Cursor (.cursor/mcp.json)',
        json({ mcpServers: { [name]: { url, headers: { Authorization: `Bearer \${env:${TOKEN_ENV}}` } } } }),
      ],
      [
        'vscode',
        'VS Code (.vscode/mcp.json)',
        json({
          inputs: [{ type: 'promptString', id: 'assay-token', description: 'Assay service token', password: true }],
          servers: { [name]: { type: 'http', url, headers: { Authorization: 'Bearer ${input:assay-token}' } } },
        }),
      ],
      [
        'generic',
        'Any Streamable HTTP client',
        json({ type: 'streamable-http', url, headers: { Authorization: `Bearer <${TOKEN_ENV}>` } }),
      ],
    ];
  }

  function copyButton(pre) {
    const button = el('button', { type: 'button', class: 'copy', text: 'Copy' });
    button.addEventListener('click', () => navigator.clipboard?.writeText(pre.textContent).catch(() => undefined));
    return button;
  }

  /** The snippet blocks for `agent` with the gateway at `base`. */
  function render(base, agent) {
    return [
      el('p', {
        class: 'hint',
        text: `Endpoint: ${endpoint(base, agent)} (Streamable HTTP). Put the token in ${TOKEN_ENV}.`,
      }),
      ...snippets(base, agent).map(([client, title, text]) => {
        const pre = el('pre', { class: 'snippet', 'data-client': client, text });
        return el(
          'div',
          { class: 'snippet-block' },
          el('div', { class: 'snippet-head' }, el('h3', { text: title }), copyButton(pre)),
          pre,
        );
      }),
    ];
  }

  return { render, endpoint };
})();
