import type { IncomingMessage } from 'node:http';
import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { isInitializeRequest, type ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { Db } from '../db/database';
import { LIMITS } from '../domain/limits';
import type { Config } from '../lib/config';
import { rejectLongUrls } from '../lib/http-client-errors';
import { HttpError, notFound } from '../lib/http-error';
import { logError, type Logger } from '../lib/logger';
import { createEgressGuard } from '../lib/outbound/egress/egress-guard';
import type { Tracing } from '../lib/telemetry/tracing';
import { requirePermission, type AuthContext } from '../lib/token-auth';
import type { CredentialVault } from '../lib/vault/credential-vault';
import { AgentCatalogs } from './agent-catalogs';
import { AuditQueue } from './audit-queue';
import { GatewayAuthCache } from './auth-cache';
import { sessionRecorder } from './call-recorder';
import { upstreamClientCapabilities } from './forward/install';
import { gatewayRateLimits } from './gateway-rate-limits';
import { messageCount, negotiatedVersion, refuseBatch } from './json-rpc-batches';
import { openGatewaySession, type GatewaySession } from './gateway-session';
import { rebindingGuard } from './rebinding-guard';
import { SessionRegistry } from './session-registry';
import { StdioPool } from './stdio-pool';
import { Upstreams } from './upstreams';
import { oauthClientUrls } from '../lib/mcp/oauth-vault';

/** What the gateway runs on: the same connections as the api and the worker. */
export interface GatewayDeps {
  config: Config;
  db: Db;
  vault: CredentialVault;
  logger: Logger;
  tracing: Tracing | null;
}

/** The gateway's HTTP app and how to stop it (sessions, upstream sessions, pooled children). */
export interface Gateway {
  app: Express;
  close(): Promise<void>;
}

/** A JSON-RPC request body fits its arguments (`gatewayArgumentBytes`) and the envelope around them. */
const BODY_LIMIT_BYTES = LIMITS.gatewayArgumentBytes + 64 * 1024;

/** The gateway: MCP over Streamable HTTP at `/mcp/agents/{agent}` (agent id or name), one session per `initialize`. */
export function createGateway(deps: GatewayDeps): Gateway {
  const { config, db, logger } = deps;
  const guard = createEgressGuard({ allowlist: config.EGRESS_ALLOWLIST });
  const idleMs = config.GATEWAY_SESSION_IDLE_SECONDS * 1000;
  const pool = new StdioPool(guard, idleMs, config.GATEWAY_STDIO_CHILDREN_PER_WORKSPACE);
  const oauthClient = oauthClientUrls(config);
  const reaper = setInterval(() => pool.reap(), Math.min(idleMs / 2, 30_000));
  reaper.unref();
  const sessions = new SessionRegistry(idleMs);
  const catalogs = new AgentCatalogs(db, logger, config.GATEWAY_LIST_POLL_MS, (agentId, catalog) => {
    for (const session of sessions.ofAgent(agentId)) {
      session.upstreams.retain(catalog.links);
      void session.server.sendToolListChanged().catch(() => undefined);
    }
  });
  const rateLimit = gatewayRateLimits(config);
  const callers = new GatewayAuthCache(db);
  const audit = new AuditQueue(db, logger);
  const versions = new WeakMap<GatewaySession, string>();

  const open = async (auth: AuthContext, agentId: string, client: ClientCapabilities): Promise<GatewaySession> => {
    if (sessions.count(auth.workspaceId) >= LIMITS.gatewaySessionsPerWorkspace)
      throw new HttpError(
        429,
        'rate_limited',
        `this workspace has ${LIMITS.gatewaySessionsPerWorkspace} gateway sessions open (limit gatewaySessionsPerWorkspace)`,
        { scope: 'workspace', limit: 'gatewaySessionsPerWorkspace' },
      );
    const owner = { workspaceId: auth.workspaceId, agentId, tokenId: auth.tokenId };
    const upstreamCapabilities = upstreamClientCapabilities(client);
    const upstreams = new Upstreams(
      { db, vault: deps.vault, guard, pool, oauthClient },
      auth.workspaceId,
      upstreamCapabilities,
    );
    catalogs.hold(agentId);
    // A session that fails to open releases what it took (the catalog it held, the upstream sessions it opened).
    const session = await openGatewaySession({
      logger,
      tracer: deps.tracing?.tracer,
      owner: { ...owner, actorType: auth.actor.type, actorId: auth.actor.id },
      catalog: () => catalogs.get(agentId),
      audit,
      upstreams,
      upstreamCapabilities,
      recorder: (mcpSessionId) => sessionRecorder(db, logger, { ...owner, mcpSessionId }),
      onClose: (closed) => {
        sessions.remove(closed);
        catalogs.release(agentId);
      },
    }).catch(async (error: unknown) => {
      catalogs.release(agentId);
      await upstreams.close();
      throw error;
    });
    sessions.add(session);
    return session;
  };

  const handle = async (req: Request, res: Response): Promise<void> => {
    const { auth, agentId } = await callers.resolve(
      req.get('authorization'),
      req.get('x-workspace-id'),
      String(req.params.agent),
    );
    requirePermission(auth, 'gateway:use');
    if (!agentId) throw notFound('agent');
    rateLimit(auth, res, messageCount(req.body));
    const sessionId = req.get('mcp-session-id');
    let session: GatewaySession | undefined;
    if (sessionId) {
      session = sessions.get(sessionId);
      // Another token's or another agent's session reads as a missing one.
      if (!session || session.owner.agentId !== agentId || session.owner.tokenId !== auth.tokenId)
        throw notFound('MCP session');
    } else if (req.method === 'POST' && isInitializeRequest(req.body)) {
      session = await open(auth, agentId, req.body.params.capabilities);
      versions.set(session, negotiatedVersion(req.body.params.protocolVersion));
    } else {
      throw new HttpError(400, 'invalid_header', 'Mcp-Session-Id header is required (send initialize first)', {
        field: 'Mcp-Session-Id',
      });
    }
    session.lastSeen = Date.now();
    if (refuseBatch(res, req.body, versions.get(session))) return;
    // The api's `req.auth` (an AuthContext) is not the SDK's AuthInfo: the transport gets the plain message.
    await session.transport.handleRequest(req as IncomingMessage, res, req.body);
  };

  const app = express();
  app.disable('x-powered-by');
  app.use(rejectLongUrls);
  // Before authentication: a request a DNS-rebinding page sends is refused whatever it carries.
  app.use('/mcp', rebindingGuard(config.ASSAY_HOST));
  app.use('/mcp', express.json({ limit: BODY_LIMIT_BYTES }));
  app.all('/mcp/agents/:agent', (req, res, next) => void handle(req, res).catch(next));
  app.use((req, _res, next) => next(new HttpError(404, 'not_found', `no gateway route ${req.method} ${req.path}`)));
  app.use((error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    const status = (error as { status?: number }).status;
    const known =
      error instanceof HttpError
        ? error
        : status === 413
          ? new HttpError(413, 'payload_too_large', `request body is over ${BODY_LIMIT_BYTES} bytes`)
          : status === 400
            ? new HttpError(400, 'malformed_json', 'request body is not valid JSON')
            : undefined;
    if (!known) logger.error({ ...logError(error) }, 'gateway request failed');
    if (res.headersSent) return void res.end();
    const answer = known ?? new HttpError(500, 'internal', 'internal error');
    res.status(answer.status).json(answer.toJSON());
  });

  return {
    app,
    async close() {
      clearInterval(reaper);
      catalogs.close();
      await sessions.close();
      await audit.flush();
      await pool.close();
      await guard.close();
    },
  };
}
