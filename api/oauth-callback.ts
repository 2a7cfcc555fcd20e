import { Router, type Response } from 'express';
import { findRole } from '../db/member.repository';
import { consumeOauthState } from '../db/mcp-oauth.repository';
import { findMcpServer } from '../db/mcp-server.repository';
import { roleAllows } from '../domain/tenancy/permissions';
import { hashToken } from '../lib/api-tokens';
import { assayClientMetadata, oauthCallbackUrl, oauthClientUrls, putAuthorizationCode } from '../lib/mcp/oauth-vault';
import type { AppDeps } from './app-deps';
import { runMcpAction } from './workflow-starts';

const escape = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(res: Response, status: number, title: string, detail: string): void {
  res
    .status(status)
    .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' })
    .send(
      `<!doctype html><html><head><meta charset="utf-8"><title>Assay: ${escape(title)}</title></head>` +
        `<body><h1>${escape(title)}</h1><p>${escape(detail)}</p></body></html>`,
    );
}

const REFUSED: Record<'unknown' | 'used' | 'expired', string> = {
  unknown: 'this authorization is not known to Assay',
  used: 'this authorization was already completed (a state is used once)',
  expired: 'this authorization expired; start again with POST …/authorize',
};

const param = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 && value.length <= 4096 ? value : undefined;

/**
 * The OAuth redirect target and Assay's client metadata document, outside /api (a browser and an authorization server
 * reach them without a token). The callback checks the state (known, unused, unexpired; its server the one whose
 * callback it arrived at; its person still manages the workspace's servers), stores the code with where it arrived
 * and its `iss` in the vault, and has a worker exchange it; it answers a small page.
 */
export function oauthRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/oauth/client-metadata.json', (_req, res) => {
    res.set('Cache-Control', 'public, max-age=300').json(assayClientMetadata(oauthClientUrls(deps.config)));
  });
  // `/oauth/callback/{server id}` is each server's own redirect URI; `/oauth/callback` the metadata document's.
  router.get(['/oauth/callback', '/oauth/callback/:serverId'], async (req, res, next) => {
    try {
      const state = param(req.query.state);
      if (!state) return page(res, 400, 'Authorization refused', 'the callback carries no state');
      const consumed = await consumeOauthState(deps.db, hashToken(state));
      if (!consumed.ok) return page(res, 400, 'Authorization refused', REFUSED[consumed.reason]);
      const { workspace_id: workspaceId, server_id: serverId, user_id: userId } = consumed.state;
      const arrivedFor = req.params.serverId;
      if (arrivedFor !== undefined && arrivedFor !== serverId)
        return page(res, 400, 'Authorization refused', "this authorization arrived at another server's callback");
      const server = await findMcpServer(deps.db, workspaceId, serverId);
      const role = await findRole(deps.db, workspaceId, userId);
      if (!server || !role || !roleAllows(role, 'mcp:manage'))
        return page(res, 403, 'Authorization refused', 'the server or the person who started this is gone');
      const error = param(req.query.error);
      if (error) {
        const description = param(req.query.error_description)?.slice(0, 300) ?? '';
        return page(res, 400, 'Authorization not granted', `${error.slice(0, 64)} ${description}`.trim());
      }
      const code = param(req.query.code);
      if (!code) return page(res, 400, 'Authorization refused', 'the callback carries no code');
      // An `iss` sent but unreadable (repeated, over the bound) is refused, never taken for one left out (RFC 9207).
      const iss = param(req.query.iss);
      if (req.query.iss !== undefined && iss === undefined)
        return page(res, 400, 'Authorization refused', 'the callback carries an unreadable iss');
      const redirectUri = oauthCallbackUrl(oauthClientUrls(deps.config).publicUrl, arrivedFor);
      await putAuthorizationCode(deps.vault, server, { code, redirect_uri: redirectUri, iss });
      const exchanged = await runMcpAction(deps, 'exchange', { workspaceId, serverId });
      if (exchanged.status === 'error')
        return page(res, 502, 'Authorization failed', `the token exchange failed: ${exchanged.message}`);
      deps.logger.info(
        { mcp_server_id: serverId, workspace_id: workspaceId, user_id: userId },
        'mcp server authorized',
      );
      return page(res, 200, 'Connected', `${server.name} is authorized. You can close this tab.`);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
