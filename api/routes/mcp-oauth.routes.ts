import crypto from 'node:crypto';
import { z } from 'zod';
import { insertOauthState, pruneOauthStates } from '../../db/mcp-oauth.repository';
import { LIMITS } from '../../domain/limits';
import { hashToken } from '../../lib/api-tokens';
import { HttpError } from '../http-error';
import { requireMcpServer } from '../lookups';
import { route, type RouteSpec } from '../route';
import { runMcpAction } from '../workflow-starts';

const authorizeJson = z.object({
  authorization_url: z
    .string()
    .describe('open it in a browser; the authorization server redirects to /oauth/callback/{server id}'),
  expires_at: z.string().describe(`the authorization must finish before this (mcpOauthStateTtlSeconds)`),
});

/** OAuth of a remote MCP server: a person starts the authorization; the callback (outside /api) finishes it. */
export const mcpOauthRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/mcp-servers/:id/authorize',
    summary:
      'Start the OAuth authorization of a server registered with auth.type "oauth" (discovery and registration run ' +
      'on a worker); answers the URL to open. A personal token only: the callback is bound to the person.',
    errors: [409, 502, 503, 504],
    tag: 'mcp',
    permission: 'mcp:manage',
    response: authorizeJson,
    handler: async ({ params, auth, deps }) => {
      const server = await requireMcpServer(deps.db, auth.workspaceId, params.id);
      if (server.auth_type !== 'oauth')
        throw new HttpError(409, 'conflict', 'the server does not use OAuth authorization (auth.type "oauth")');
      if (!auth.userId) throw new HttpError(403, 'forbidden', 'a person authorizes a server: use a personal token');
      const ref = { workspaceId: auth.workspaceId, serverId: server.id };
      const started = await runMcpAction(deps, 'authorize', ref);
      if (started.status === 'error') throw new HttpError(502, 'mcp_authorize_failed', started.message);
      // The state is made and kept here (its hash only): it never passes through the worker or Temporal history.
      const state = crypto.randomBytes(32).toString('base64url');
      const expiresAt = new Date(Date.now() + LIMITS.mcpOauthStateTtlSeconds * 1000);
      await pruneOauthStates(deps.db, server.id);
      await insertOauthState(deps.db, {
        stateHash: hashToken(state),
        workspaceId: auth.workspaceId,
        serverId: server.id,
        userId: auth.userId,
        expiresAt,
      });
      const url = new URL(started.authorization_url);
      url.searchParams.set('state', state);
      return { authorization_url: url.toString(), expires_at: expiresAt.toISOString() };
    },
  }),
];
