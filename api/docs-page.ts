import path from 'node:path';
import { Router } from 'express';
import { pageHeaders } from './builder-pages';
import type { OpenApiDocument } from './openapi';

// Swagger UI's browser files, served as the package ships them (no network: the page loads nothing from elsewhere).
const SWAGGER_UI_DIR = path.dirname(require.resolve('swagger-ui-dist/package.json'));
const SWAGGER_UI_FILES = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];
const DOCS_SCRIPT = path.join(__dirname, 'public', 'docs.js');

const escape = (s: string): string => s.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

// Without JavaScript the page still lists every operation.
function operationList(document: OpenApiDocument): string {
  const items = Object.entries(document.paths ?? {}).flatMap(([route, item]) =>
    Object.entries(item as Record<string, { summary?: string }>).map(
      ([method, op]) => `<li><code>${method.toUpperCase()} ${escape(route)}</code> ${escape(op.summary ?? '')}</li>`,
    ),
  );
  return `<ul>${items.join('')}</ul>`;
}

/** The API reference page: the OpenAPI document rendered by Swagger UI from the installed `swagger-ui-dist`. */
function renderDocsPage(document: OpenApiDocument): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Assay API reference</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png"><link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui" data-url="/openapi.json"></div>
<noscript><h1>Assay API</h1><p>The document: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1).</p>${operationList(document)}</noscript>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/assets/docs.js"></script></body></html>`;
}

/** `/docs` (the API reference), its assets, and `/`, which leads a newcomer to the builder. */
export function docsPages(document: OpenApiDocument): Router {
  const router = Router();
  const page = renderDocsPage(document);
  router.get('/', (_req, res) => res.redirect(302, '/builder'));
  router.use('/docs', pageHeaders);
  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });
  for (const file of SWAGGER_UI_FILES)
    router.get(`/docs/assets/${file}`, (_req, res) => res.sendFile(path.join(SWAGGER_UI_DIR, file)));
  router.get('/docs/assets/docs.js', (_req, res) => res.sendFile(DOCS_SCRIPT));
  return router;
}
