import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { z } from 'zod';

/** The one error body of every non-2xx answer (`HttpError.toJSON()`), a component of `/openapi.json`. */
const errorBodySchema = z
  .strictObject({
    error: z.strictObject({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'ErrorBody', description: 'Every error: a code to branch on, a message, and details naming fields' });

/** What each error status means across the API; the codes are the `error.code` values it carries. */
const ERROR_STATUS_DESCRIPTIONS: Readonly<Record<number, string>> = {
  400: 'Malformed JSON or path, or an X-Workspace-Id that is not a UUID (`malformed_json`, `invalid_header`)',
  401: 'Missing, unknown, revoked or expired bearer token (`unauthorized`)',
  403: 'The role lacks the permission, or the caller may not act in the X-Workspace-Id workspace (`forbidden`)',
  404: 'No such resource in this workspace, or one named in the body is not (`not_found`)',
  409: 'Conflicts with the current state: a name already taken, an agent not published or not runnable',
  413: 'Request body over BODY_LIMIT, or a case import over its limits (`payload_too_large`)',
  415: 'Request body that is not application/json (`unsupported_media_type`)',
  422: 'A body, query or path value is invalid; `details` names each field (`validation_failed`)',
  429: 'Over the request quota of the token or the workspace (`rate_limited`); `Retry-After` says when to try again',
  414: 'Request URL (path and query string) over `requestUrlBytes`, e.g. a long `cursor` (`uri_too_long`)',
  431: "Request line and headers over Node's limit (16 KiB) without a URL over its own (`headers_too_large`)",
  500: 'Internal error; the message names the request id and nothing else (`internal`)',
  502: 'The workflow the request waited for failed; the message says why',
  503: 'The workflow service is unavailable (`unavailable`)',
  504: 'No worker completed the request in time (`worker_timeout`)',
};

/** The headers of a 429 (every authenticated answer carries the last two). */
const RATE_LIMIT_HEADERS = {
  'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer' as const } },
  RateLimit: {
    description: 'Per policy (`"token"`, `"workspace"`): requests left (`r`) and seconds until full again (`t`)',
    schema: { type: 'string' as const },
  },
  'RateLimit-Policy': {
    description: "Each policy's quota (`q`) per window of `w` seconds (RATE_LIMIT_TOKEN_PER_MINUTE, …_WORKSPACE_…)",
    schema: { type: 'string' as const },
  },
};

/** What decides a route's error statuses: its inputs, and the extra statuses it declares. */
export interface ErrorSources {
  path: string;
  body?: unknown;
  query?: unknown;
  errors?: readonly number[];
}

/** Every error status a route of the authenticated API can answer, derived from its definition. */
export function routeErrorStatuses(spec: ErrorSources): number[] {
  const statuses = new Set([400, 401, 403, 414, 429, 431, 500, ...(spec.errors ?? [])]);
  if (spec.path.includes(':')) statuses.add(404);
  if (spec.body) [413, 415, 422].forEach((status) => statuses.add(status));
  if (spec.query) statuses.add(422);
  return [...statuses].sort((a, b) => a - b);
}

/** OpenAPI responses for `statuses`, each with the shared error body. */
export function errorResponses(statuses: readonly number[]): Record<number, ResponseConfig> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: ERROR_STATUS_DESCRIPTIONS[status] ?? 'Error',
        ...(status === 429 ? { headers: RATE_LIMIT_HEADERS } : {}),
        content: { 'application/json': { schema: errorBodySchema } },
      },
    ]),
  );
}
