import { z } from 'zod';
import { isUuid } from '../../db/column-values';
import {
  insertServiceTokenWithinLimit,
  listServiceTokens,
  revokeServiceToken,
} from '../../db/service-token.repository';
import { LIMITS } from '../../domain/limits';
import type { ROLES } from '../../domain/tenancy/permissions';
import { SERVICE_TOKEN_PREFIX, generateToken } from '../../lib/api-tokens';
import { notFound } from '../http-error';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { expiryOf, tokenBody, tokenSummaryJson, tooManyTokens } from '../token-input';
import { serviceTokenJson, toServiceTokenJson } from '../json/service-token.json';

const SERVICE_ROLES = ['admin', 'builder', 'viewer'] as const satisfies ReadonlyArray<(typeof ROLES)[number]>;

// Owner is refused by name: a service token cannot delete its workspace or change who owns it.
const createBody = tokenBody
  .extend({
    role: z
      .enum(SERVICE_ROLES, {
        error: (issue) => (issue.input === 'owner' ? 'a service token cannot be owner' : undefined),
      })
      .default('builder'),
  })
  .strict();

const createdJson = z.object({ ...tokenSummaryJson, role: z.string(), token: z.string() });

/** The current workspace's service tokens: tokens for CI that act only in this workspace, with a role of their own. */
export const serviceTokenRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/workspaces/current/service-tokens',
    summary: 'Create a service token of the workspace (shown once; role defaults to builder, never owner)',
    tag: 'service-tokens',
    permission: 'service_tokens:manage',
    body: createBody,
    status: 201,
    response: z.object({ data: createdJson }),
    handler: async ({ body, auth, deps }) => {
      const { token, hash, prefix } = generateToken(SERVICE_TOKEN_PREFIX);
      const outcome = await insertServiceTokenWithinLimit(
        deps.db,
        {
          workspace_id: auth.workspaceId,
          name: body.name,
          role: body.role,
          token_hash: hash,
          prefix,
          created_by: auth.userId,
          expires_at: expiryOf(body.expires_in_days),
        },
        LIMITS.activeTokensPerOwner,
      );
      if ('full' in outcome) throw tooManyTokens('this workspace', outcome.full);
      const { id, name, role, created_at, expires_at } = toServiceTokenJson(outcome.inserted);
      return { data: { id, name, role, token, prefix, created_at, expires_at } };
    },
  }),
  route({
    method: 'get',
    path: '/api/workspaces/current/service-tokens',
    summary: "List the workspace's service tokens, newest first (never the token itself)",
    tag: 'service-tokens',
    permission: 'service_tokens:manage',
    query: pageQuery,
    response: dataPageJson(serviceTokenJson),
    handler: async ({ query, auth, deps }) =>
      dataPage(query, (page) => listServiceTokens(deps.db, auth.workspaceId, page), toServiceTokenJson),
  }),
  route({
    method: 'delete',
    path: '/api/workspaces/current/service-tokens/:id',
    summary: 'Revoke a service token of the workspace (it answers 401 from the next request on)',
    tag: 'service-tokens',
    permission: 'service_tokens:manage',
    handler: async ({ params, auth, deps }) => {
      if (!isUuid(params.id) || !(await revokeServiceToken(deps.db, auth.workspaceId, params.id)))
        throw notFound('service token');
      return undefined;
    },
  }),
];
