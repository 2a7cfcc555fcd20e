import express, { Router, type Express } from 'express';
import { authMiddleware } from './auth';
import type { AppDeps } from './app-deps';
import { errorHandler } from './error-handler';
import { HttpError } from './http-error';
import { createRegistry, generateDocument, renderDocsPage } from './openapi';
import { requestContext, requireJsonBody } from './request-context';
import { mountRoutes, type RouteSpec } from './route';
import { agentRoutes } from './routes/agents.routes';
import { healthRouter } from './routes/health.routes';

/** Every authenticated route of the API. */
export const API_ROUTES: RouteSpec[] = [...agentRoutes];

/** Builds the Express application: health, docs, then authenticated routes, then the one error handler. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(requestContext(deps.logger));
  app.use(healthRouter(deps));

  const registry = createRegistry();
  const api = Router();
  mountRoutes(api, registry, deps, API_ROUTES);
  const document = generateDocument(registry);

  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.get('/docs', (_req, res) => {
    res.type('html').send(renderDocsPage(document));
  });
  app.use('/api', authMiddleware(deps.db), requireJsonBody, express.json({ limit: deps.config.BODY_LIMIT, strict: true }));
  app.use(api);
  app.use(() => {
    throw new HttpError(404, 'not_found', 'route not found');
  });
  app.use(errorHandler(deps.logger));
  return app;
}
