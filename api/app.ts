import express, { Router, type Express } from 'express';
import { createAuditTrail } from './audit-trail';
import { authMiddleware } from './auth';
import { builderPages } from './builder-pages';
import type { AppDeps } from './app-deps';
import { errorHandler } from './error-handler';
import { rejectLongUrls } from '../lib/http-client-errors';
import { servesOnlyLoopback } from '../lib/loopback-host';
import { evalSetFileJsonSchema } from '../domain/eval/eval-set-file.schema';
import { cassetteFileJsonSchema } from '../domain/eval/cassette';
import { HttpError } from './http-error';
import { httpMetrics } from './http-metrics';
import { bulkBodies, jsonBodies } from './jsonl-body';
import { docsPages } from './docs-page';
import { createRegistry, generateDocument } from './openapi';
import { registerPlatformPaths } from './platform-paths';
import { rejectNulInPath, requestContext, requireJsonBody } from './request-context';
import { rateLimits } from './rate-limits';
import { requestSpans } from './request-spans';
import { mountRoutes, type RouteSpec } from './route';
import { accountRoutes } from './routes/account.routes';
import { agentLinkRoutes } from './routes/agent-links.routes';
import { agentRunRoutes } from './routes/agent-runs.routes';
import { agentRoutes } from './routes/agents.routes';
import { auditRoutes } from './routes/audit.routes';
import { conversationBatchRoutes } from './routes/conversation-batch.routes';
import { conversationRoutes } from './routes/conversations.routes';
import { evalCaseRoutes } from './routes/eval-cases.routes';
import { evalRunActionRoutes } from './routes/eval-run-actions.routes';
import { evalRunCaseRoutes } from './routes/eval-run-cases.routes';
import { evalRunCompareRoutes } from './routes/eval-run-compare.routes';
import { evalRunRoutes } from './routes/eval-runs.routes';
import { evalSetRoutes } from './routes/eval-sets.routes';
import { evalSetFileRoutes } from './routes/eval-set-files.routes';
import { cassetteRoutes } from './routes/cassette.routes';
import { adkConfigRoutes } from './routes/adk-config.routes';
import { ADK_RESULTS_PATH, adkResultRoutes } from './routes/adk-results.routes';
import { adkResultBodies } from './adk-result-body';
import { flowRunRoutes } from './routes/flow-runs.routes';
import { flowRoutes } from './routes/flows.routes';
import { codecRouter } from './routes/codec.routes';
import { healthRouter } from './routes/health.routes';
import { metricsRouter } from './routes/metrics.routes';
import { integrationRoutes } from './routes/integrations.routes';
import { judgeModelRoutes } from './routes/judge-model.routes';
import { mcpCatalogRoutes } from './routes/mcp-catalog.routes';
import { mcpServerActionRoutes } from './routes/mcp-server-actions.routes';
import { mcpOauthRoutes } from './routes/mcp-oauth.routes';
import { oauthRouter } from './oauth-callback';
import { mcpToolApprovalRoutes } from './routes/mcp-tool-approval.routes';
import { mcpToolCallRoutes } from './routes/mcp-tool-call.routes';
import { mcpServerHealthRoutes } from './routes/mcp-server-health.routes';
import { mcpServerRoutes } from './routes/mcp-servers.routes';
import { modelPriceRoutes } from './routes/model-prices.routes';
import { invitationClaimRoutes } from './routes/invitation-claims.routes';
import { memberRoutes } from './routes/members.routes';
import { workspaceRoutes } from './routes/workspaces.routes';
import { serviceTokenRoutes } from './routes/service-tokens.routes';

/** Every authenticated route of the API. */
export const API_ROUTES: RouteSpec[] = [
  ...agentRoutes,
  ...mcpCatalogRoutes,
  ...mcpServerRoutes,
  ...mcpServerActionRoutes,
  ...mcpOauthRoutes,
  ...mcpToolApprovalRoutes,
  ...mcpToolCallRoutes,
  ...mcpServerHealthRoutes,
  ...agentLinkRoutes,
  ...flowRoutes,
  ...flowRunRoutes,
  ...conversationRoutes,
  ...conversationBatchRoutes,
  ...agentRunRoutes,
  ...evalSetRoutes,
  ...evalCaseRoutes,
  ...evalSetFileRoutes,
  ...cassetteRoutes,
  ...adkConfigRoutes,
  ...adkResultRoutes,
  ...evalRunRoutes,
  ...evalRunCaseRoutes,
  ...evalRunCompareRoutes,
  ...evalRunActionRoutes,
  ...judgeModelRoutes,
  ...modelPriceRoutes,
  ...integrationRoutes,
  ...workspaceRoutes,
  ...memberRoutes,
  ...invitationClaimRoutes,
  ...auditRoutes,
  ...accountRoutes,
  ...serviceTokenRoutes,
];

/** Routes whose body is a whole set (JSON or JSONL, up to `LIMITS.importBodyBytes`): see `api/jsonl-body.ts`. */
const BULK_IMPORT_PATHS: readonly string[] = [
  '/api/ai-agents/:agent/runs/import/batch',
  '/api/ai-agents/:agent/eval-sets/:set/cases/import',
];

/** Builds the Express application: health, metrics, docs, then authenticated routes, then the one error handler. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  if (deps.tracer) app.use(requestSpans(deps.tracer));
  app.use(requestContext(deps.logger));
  app.use(httpMetrics());
  app.use(rejectLongUrls);
  app.use(healthRouter(deps));
  app.use(metricsRouter(deps));

  const registry = createRegistry();
  const api = Router();
  const audit = createAuditTrail(deps.db, deps.logger, API_ROUTES);
  mountRoutes(api, registry, deps, API_ROUTES, audit);
  registerPlatformPaths(registry);
  const document = generateDocument(registry);

  app.get('/openapi.json', (_req, res) => {
    res.json(document);
  });
  app.use(docsPages(document));
  const evalSetSchema = evalSetFileJsonSchema();
  app.get('/schemas/eval-set.json', (_req, res) => {
    res.json(evalSetSchema);
  });
  const cassetteSchema = cassetteFileJsonSchema();
  app.get('/schemas/cassette.json', (_req, res) => {
    res.json(cassetteSchema);
  });
  app.use(builderPages(deps.config));
  app.use(oauthRouter(deps));
  const codec = deps.temporal.options.loadedDataConverter.payloadCodecs[0];
  app.use(
    codecRouter(codec, {
      db: deps.db,
      logger: deps.logger,
      allowedOrigins: deps.config.TEMPORAL_CODEC_ORIGINS,
      bodyLimit: deps.config.BODY_LIMIT,
      tokenless: deps.embeddedTemporalUi === true && servesOnlyLoopback(deps.config),
    }),
  );
  app.use('/api', authMiddleware(deps.db), rateLimits(deps.config), rejectNulInPath);
  app.use(bulkBodies(API_ROUTES.filter((spec) => spec.method === 'post' && BULK_IMPORT_PATHS.includes(spec.path))));
  app.use(adkResultBodies({ path: ADK_RESULTS_PATH, permission: 'evals:manage' }));
  app.use('/api', requireJsonBody, jsonBodies(deps.config.BODY_LIMIT));
  app.use(api);
  app.use(() => {
    throw new HttpError(404, 'not_found', 'route not found');
  });
  app.use(errorHandler(deps.logger, audit));
  return app;
}
