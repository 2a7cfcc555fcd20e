import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';

type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;

/** A registry with the bearer scheme every route uses. */
export function createRegistry(): OpenAPIRegistry {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Personal API token',
  });
  return registry;
}

/** The OpenAPI 3.1 document of every registered route. */
export function generateDocument(registry: OpenAPIRegistry): OpenApiDocument {
  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: { title: 'Assay API', version: '0.1.0', description: 'Agent evaluation and MCP server catalog.' },
  });
}

const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** A plain, dependency-free docs page rendered from the document. */
export function renderDocsPage(document: OpenApiDocument): string {
  const rows = Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    Object.entries(item as Record<string, { summary?: string; description?: string }>).map(
      ([method, op]) =>
        `<tr><td><code>${method.toUpperCase()}</code></td><td><code>${escape(path)}</code></td><td>${escape(op.summary ?? '')}</td><td>${escape(op.description ?? '').replace(/`([^`]+)`/g, '<code>$1</code>')}</td></tr>`,
    ),
  );
  return `<!doctype html><html><head><meta charset="utf-8"><title>Assay API</title>
<style>body{font:14px system-ui;margin:2rem}td{padding:.25rem .75rem;border-bottom:1px solid #ddd}</style></head>
<body><h1>Assay API</h1><p>Machine-readable: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Every route takes <code>Authorization: Bearer &lt;token&gt;</code>.</p>
<p>Live eval progress: WebSocket <code>/ws</code> (token in the <code>Authorization</code> header, or from a browser as the subprotocol <code>assay.bearer.&lt;token&gt;</code> beside <code>assay.v1</code>); send <code>{"type":"subscribe","run_id":"…"}</code>, receive <code>snapshot</code>, then <code>progress</code> and <code>case_result</code>, then <code>run_status</code>. The builder pages are at <a href="/builder">/builder</a>.</p>
<table><tr><th>Method</th><th>Path</th><th>Summary</th><th>Notes</th></tr>${rows.join('')}</table></body></html>`;
}
