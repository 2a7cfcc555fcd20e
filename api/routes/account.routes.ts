import { z } from 'zod';
import { findUserProfile, findWorkspaceName, listUserMemberships } from '../../db/account.repository';
import { isUuid } from '../../db/column-values';
import { listUserApiTokens, revokeApiToken } from '../../db/api-token.repository';
import { LIMITS } from '../../domain/limits';
import { requireUser, type AuthContext } from '../auth';
import { notFound } from '../http-error';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';
import { NO_PERSONAL_TOKENS, createPersonalToken, createdTokenJson, personalExpiryFor } from '../personal-tokens';
import { isoOrNull, tokenBody, tokenSummaryJson } from '../token-input';
import type { Db } from '../../db/database';

const membershipJson = z.object({ workspace_id: z.string(), name: z.string(), role: z.string() });
const meJson = z.object({
  user: z.object({ id: z.string(), email: z.string(), name: z.string(), operator: z.boolean() }).nullable(),
  actor: z.object({ type: z.enum(['user', 'service_token']), id: z.string() }),
  memberships: z.array(membershipJson),
  current_workspace_id: z.string(),
});

const personalTokenJson = z.object({
  ...tokenSummaryJson,
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

// A service token, or a personal token scoped to one workspace, acts in that workspace with the caller's role there; a
// user's other tokens in every workspace they are a member of (the first pageMax by name: `GET /api/workspaces` pages
// through all of them).
async function membershipsOf(db: Db, auth: AuthContext): Promise<Array<z.infer<typeof membershipJson>>> {
  if (auth.userId !== null && auth.scopeWorkspaceId === undefined)
    return listUserMemberships(db, auth.userId, LIMITS.pageMax);
  const name = await findWorkspaceName(db, auth.workspaceId);
  return name === undefined ? [] : [{ workspace_id: auth.workspaceId, name, role: auth.role }];
}

/** Who the caller is (`GET /api/me`) and the caller's personal tokens (`/api/tokens`). */
export const accountRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/me',
    summary: 'Who is calling: the user (null for a service token), the actor, workspaces and roles',
    tag: 'account',
    permission: 'account:view',
    response: z.object({ data: meJson }),
    handler: async ({ auth, deps }) => {
      const user = auth.userId === null ? undefined : await findUserProfile(deps.db, auth.userId);
      return {
        data: {
          user: user ?? null,
          actor: auth.actor,
          memberships: await membershipsOf(deps.db, auth),
          current_workspace_id: auth.workspaceId,
        },
      };
    },
  }),
  route({
    method: 'post',
    path: '/api/tokens',
    summary:
      'Create a personal token (shown once; its default workspace is the current one; at most TOKEN_MAX_DAYS). One ' +
      'created with a scoped token (an invitation’s) acts in that workspace only and expires no later than it',
    tag: 'account',
    permission: 'tokens:own',
    body: tokenBody,
    status: 201,
    response: z.object({ data: createdTokenJson }),
    handler: async ({ body, auth, deps }) => {
      const userId = requireUser(auth, NO_PERSONAL_TOKENS);
      const scope = auth.scopeWorkspaceId ?? null;
      const spec = {
        userId,
        workspaceId: auth.workspaceId,
        scope,
        mintedBy: scope === null ? null : auth.tokenId,
        name: body.name,
        expiresAt: await personalExpiryFor(deps.db, auth, body.expires_in_days, deps.config.TOKEN_MAX_DAYS),
      };
      return { data: await deps.db.transaction().execute((trx) => createPersonalToken(trx, spec)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/tokens',
    summary:
      "List the caller's personal tokens, newest first (never the token itself); a scoped token lists its " +
      "workspace's scoped tokens only",
    tag: 'account',
    permission: 'tokens:own',
    query: pageQuery,
    response: dataPageJson(personalTokenJson),
    handler: async ({ query, auth, deps }) => {
      const userId = requireUser(auth, NO_PERSONAL_TOKENS);
      return dataPage(
        query,
        (page) => listUserApiTokens(deps.db, userId, page, auth.scopeWorkspaceId),
        (t) => ({
          id: t.id,
          name: t.name,
          prefix: t.prefix,
          created_at: t.created_at.toISOString(),
          expires_at: isoOrNull(t.expires_at),
          last_used_at: isoOrNull(t.last_used_at),
          revoked_at: isoOrNull(t.revoked_at),
        }),
      );
    },
  }),
  route({
    method: 'delete',
    path: '/api/tokens/:id',
    summary:
      'Revoke one of the caller’s personal tokens and those minted with it (401 from the next request on); a scoped ' +
      'token revokes only tokens of its workspace (another is 404)',
    tag: 'account',
    permission: 'tokens:own',
    handler: async ({ params, auth, deps }) => {
      const userId = requireUser(auth, NO_PERSONAL_TOKENS);
      const revoked = isUuid(params.id) && (await revokeApiToken(deps.db, userId, params.id, auth.scopeWorkspaceId));
      if (!revoked) throw notFound('token');
      return undefined;
    },
  }),
];
