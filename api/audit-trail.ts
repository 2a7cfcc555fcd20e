import type { Request } from 'express';
import { insertAuditEvent } from '../db/audit.repository';
import type { Db } from '../db/database';
import { logError, type Logger } from '../lib/logger';

/** The methods that change state: each such request after authentication writes one audit entry. */
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A path param is kept up to this many characters: every name and id the API accepts fits. */
const MAX_RESOURCE_ID_CHARS = 256;

/** The route a request matched, as far as the trail names it. */
export interface AuditedRoute {
  method: string;
  path: string;
  /** The kind of resource the route creates or acts on, when its path does not say it (`…/:set/run` makes an eval run). */
  resource?: string;
}

/** What the trail records about the resource of a request. */
export interface AuditResource {
  type: string | null;
  id: string | null;
}

const createdId = (result: unknown): string | undefined => {
  const body = result as { id?: unknown; data?: { id?: unknown } } | null | undefined;
  const id = body?.id ?? body?.data?.id;
  return typeof id === 'string' ? id : undefined;
};

/**
 * The resource of a request: the last `collection/:param` pair of the path when the path ends with it; else what the
 * response created (`POST /api/ai-agents` → `ai-agents` and the new id); else that last pair (an action on it).
 */
export function auditResource(route: AuditedRoute, params: Record<string, string>, result: unknown): AuditResource {
  const segments = route.path.split('/').filter(Boolean);
  const pairs = segments.flatMap((segment, i) =>
    segment.startsWith(':') && i > 0 ? [{ type: segments[i - 1], id: params[segment.slice(1)] ?? null }] : [],
  );
  const owner = pairs.at(-1);
  const last = segments.at(-1) ?? null;
  if (owner && last?.startsWith(':')) return owner;
  const created = createdId(result);
  if (route.resource)
    return { type: route.resource, id: created ?? (owner?.type === route.resource ? owner.id : null) };
  if (created !== undefined && created !== owner?.id) return { type: last, id: created };
  return owner ?? { type: last, id: created ?? null };
}

/** `success` for 1xx–3xx, `denied` for a 403, `failed` for any other error. */
export function auditOutcome(status: number): 'success' | 'denied' | 'failed' {
  if (status < 400) return 'success';
  return status === 403 ? 'denied' : 'failed';
}

// A percent-decoded param when it is text Postgres can hold; else the raw segment.
function decoded(segment: string): string {
  try {
    const text = decodeURIComponent(segment);
    return text.includes('\u0000') ? segment : text;
  } catch {
    return segment;
  }
}

// The whole path: `req.path` is relative to where the middleware that failed was mounted.
const pathOf = (req: Request): string => req.originalUrl.split('?')[0];

function matches(path: string, template: string): Record<string, string> | undefined {
  const given = path.split('/');
  const wanted = template.split('/');
  if (given.length !== wanted.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, segment] of wanted.entries()) {
    if (segment.startsWith(':') && given[i] !== '') params[segment.slice(1)] = decoded(given[i]);
    else if (segment !== given[i]) return undefined;
  }
  return params;
}

/** Writes the one audit entry of a request; a request records at most once, wherever it ends. */
export interface AuditTrail {
  /** Remembers the route the request matched, for an error raised later in the request. */
  enter(req: Request, route: AuditedRoute): void;
  /** Records how the request ended: from the route layer (with the result) or the error handler. */
  record(req: Request, status: number, result?: unknown): Promise<void>;
}

/** The trail of an app over its routes: entries go to Postgres; a failed write is logged, the response stays. */
export function createAuditTrail(db: Db, logger: Logger, routes: readonly AuditedRoute[]): AuditTrail {
  // An error before the router ran (a body that is not JSON, a path no route has) still names the route it meant.
  const routeOf = (req: Request): { route: AuditedRoute; params: Record<string, string> } | undefined => {
    if (req.auditRoute) return req.auditRoute;
    for (const route of routes) {
      const params = route.method.toUpperCase() === req.method ? matches(pathOf(req), route.path) : undefined;
      if (params) return { route, params };
    }
    return undefined;
  };
  return {
    enter(req, route) {
      req.auditRoute = { route, params: req.params as Record<string, string> };
    },
    async record(req, status, result) {
      const auth = req.auth;
      // No entry without a caller (401, or 403 for a workspace the caller is not in) or for a read.
      if (!auth || !STATE_CHANGING.has(req.method) || req.audited) return;
      req.audited = true;
      const matched = routeOf(req);
      const resource = matched ? auditResource(matched.route, matched.params, result) : { type: null, id: null };
      try {
        await insertAuditEvent(db, {
          workspace_id: auth.workspaceId,
          actor_type: auth.actor.type,
          actor_id: auth.actor.id,
          action: `${req.method} ${matched?.route.path ?? '(no route)'}`,
          resource_type: resource.type,
          resource_id: resource.id?.slice(0, MAX_RESOURCE_ID_CHARS) ?? null,
          outcome: auditOutcome(status),
          status,
          request_id: req.requestId ?? 'unknown',
        });
      } catch (error) {
        logger.error({ ...logError(error), request_id: req.requestId }, 'audit entry not written');
      }
    },
  };
}

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      auditRoute?: { route: AuditedRoute; params: Record<string, string> };
      audited?: boolean;
    }
  }
}
