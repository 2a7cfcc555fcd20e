import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import type { Request, Response, Router } from 'express';
import { z } from 'zod';
import type { Permission } from '../domain/tenancy/permissions';
import { requirePermission, type AuthContext } from './auth';
import { errorResponses, routeErrorStatuses } from './error-responses';
import { invalidFields, problemDetail } from './field-errors';
import { HttpError } from './http-error';
import { unstorable } from './unstorable';
import type { AppDeps } from './app-deps';
import { authInWorkspace } from './workspace-scope';
import type { AuditTrail } from './audit-trail';

/** What a handler gets: the parsed body, path params, the caller and the app's dependencies. */
export interface RouteContext<B> {
  body: B;
  params: Record<string, string>;
  query: Record<string, unknown>;
  auth: AuthContext;
  deps: AppDeps;
  req: Request;
  res: Response;
}

/** One endpoint: mounted on express and described in OpenAPI from the same definition. */
export interface RouteSpec<S extends z.ZodType = z.ZodType<unknown>> {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  summary: string;
  tag: string;
  permission: Permission;
  body?: S;
  /** Parses the body instead of validating it against `body` (which then only documents it): a bulk route that names
   * its items its own way (`items[3].field`) and answers 413 above its item limit. */
  parseBody?: (req: Request) => z.infer<S>;
  status?: number;
  response?: z.ZodType;
  headers?: z.ZodObject;
  /** Query parameters: parsed before the handler (422 naming the parameter) and documented in OpenAPI. */
  query?: z.ZodObject;
  /** The path parameter naming the workspace the permission is checked in, instead of X-Workspace-Id's (a non-member
   * gets 404): `PATCH /api/workspaces/:id`. */
  workspaceParam?: string;
  /** Error statuses beyond those derived from the definition (409 conflicts; 502/503/504 from Temporal). */
  errors?: readonly number[];
  /** A second success the handler may answer with `new StatusReply(status, body)` (a dry run's 200 beside a 201). */
  altResponse?: { status: number; description: string; schema: z.ZodType };
  /** The kind of resource the audit trail names, when the path does not (see `auditResource`). */
  resource?: string;
  handler: (ctx: RouteContext<z.infer<S>>) => Promise<unknown>;
}

/** A handler's answer with a status other than the route's own (its `altResponse`). */
export class StatusReply {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** Identity helper that keeps the body type of a route definition. */
export function route<S extends z.ZodType = z.ZodType<unknown>>(spec: RouteSpec<S>): RouteSpec<S> {
  return spec;
}

// A broken bound also says the largest value allowed and, for a bound of the limits table, which limit it is.
function issueDetail(issue: z.core.$ZodIssue): { field: string; message: string; limit?: string; max?: number } {
  const detail = problemDetail({ field: issue.path.join('.') || '(body)', message: issue.message });
  return detail.limit || issue.code !== 'too_big' ? detail : { ...detail, max: Number(issue.maximum) };
}

/** Turns zod issues into a 422 that names the offending field (and, for a bound, the limit). */
export function validationError(error: z.ZodError): HttpError {
  return invalidFields(error.issues.map(issueDetail));
}

/** Parses `value` with `schema` or throws the 422. */
export function parseOr422<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const problem = unstorable(value);
  if (problem) throw new HttpError(422, 'validation_failed', `${problem.field}: ${problem.message}`, [problem]);
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

const openApiPath = (path: string): string => path.replace(/:([A-Za-z_]+)/g, '{$1}');

/**
 * Mounts routes on a router and registers them in the OpenAPI registry. A state-changing request records its audit
 * entry before its response is sent (an error, in the error handler, before the error response).
 */
export function mountRoutes(
  router: Router,
  registry: OpenAPIRegistry,
  deps: AppDeps,
  routes: RouteSpec[],
  audit: AuditTrail,
): void {
  for (const spec of routes) {
    const params = [...spec.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]);
    registry.registerPath({
      method: spec.method,
      path: openApiPath(spec.path),
      summary: spec.summary,
      tags: [spec.tag],
      security: [{ bearerAuth: [] }],
      description: `Requires permission \`${spec.permission}\`.`,
      request: {
        ...(params.length ? { params: z.object(Object.fromEntries(params.map((p) => [p, z.string()]))) } : {}),
        ...(spec.headers ? { headers: spec.headers } : {}),
        ...(spec.query ? { query: spec.query } : {}),
        ...(spec.body ? { body: { content: { 'application/json': { schema: spec.body } } } } : {}),
      },
      responses: {
        // As the handler answers: a route without a response body answers 204 unless it names its status.
        [spec.status ?? (spec.response ? 200 : 204)]: {
          description: 'Success',
          ...(spec.response ? { content: { 'application/json': { schema: spec.response } } } : {}),
        },
        ...(spec.altResponse
          ? {
              [spec.altResponse.status]: {
                description: spec.altResponse.description,
                content: { 'application/json': { schema: spec.altResponse.schema } },
              },
            }
          : {}),
        ...errorResponses(routeErrorStatuses(spec)),
      },
    });
    router[spec.method](spec.path, async (req: Request, res: Response) => {
      const params = req.params as Record<string, string>;
      if (spec.workspaceParam)
        req.auth = await authInWorkspace(deps.db, req.auth as AuthContext, params[spec.workspaceParam]);
      const auth = req.auth as AuthContext;
      audit.enter(req, spec);
      requirePermission(auth, spec.permission);
      const body = spec.parseBody ? spec.parseBody(req) : spec.body ? parseOr422(spec.body, req.body ?? {}) : undefined;
      const query = spec.query ? parseOr422(spec.query, req.query) : req.query;
      const answer = await spec.handler({ body, params, query, auth, deps, req, res });
      const result = answer instanceof StatusReply ? answer.body : answer;
      const status =
        answer instanceof StatusReply ? answer.status : (spec.status ?? (result === undefined ? 204 : 200));
      await audit.record(req, status, result);
      if (result === undefined) res.status(status).end();
      else res.status(status).json(result);
    });
  }
}
