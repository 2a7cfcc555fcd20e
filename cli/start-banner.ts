/** What `assay start` prints once everything is up. */
export interface StartBanner {
  apiUrl: string;
  /** The MCP gateway's endpoint template (`…/mcp/agents/{agent}`). */
  gatewayUrl: string;
  temporalUi: string | null;
  /** The credential store's backend: `vault` (VAULT_ADDR) or the embedded store. */
  vault: string;
  /** The owner token of a first start (shown once), else null. */
  token: string | null;
  /** Who may use the codec, in one line. */
  codec: string;
}

/** The banner of `assay start`: the builder first (where `/` leads too), then the API, its docs and the rest. */
export function startBanner({ apiUrl, gatewayUrl, temporalUi, vault, token, codec }: StartBanner): string {
  const lines = [
    '',
    'Assay is running.',
    `  Builder      ${apiUrl}/builder   (start here; ${apiUrl}/ leads there too)`,
    `  API          ${apiUrl}`,
    `  API docs     ${apiUrl}/docs   (OpenAPI: ${apiUrl}/openapi.json)`,
    `  MCP gateway  ${gatewayUrl}   (Streamable HTTP; Authorization: Bearer <token>)`,
    `  Temporal UI  ${temporalUi ?? '(external Temporal; set TEMPORAL_UI_URL to show it here)'}`,
    `  Credentials  ${vault === 'vault' ? 'Vault at VAULT_ADDR' : 'embedded store (AES-256-GCM in Postgres)'}`,
    `  Codec        ${codec}`,
    token
      ? `  Token        ${token}\n               (shown once; create more with: npx assay token create --email you@example.com)`
      : '  Token        shown at first start; create another with: npx assay token create --email you@example.com',
    '',
    'Press Ctrl-C to stop.',
    '',
  ];
  return lines.join('\n');
}
