import type { Express, RequestHandler } from 'express';
import type { OAuthMetadata } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { OauthPeer, PeerProvider } from './oauth-peer';

type Switches = Pick<
  OauthPeer,
  'iss' | 'authorizationServer' | 'presentedSecrets' | 'grants' | 'ttl' | 'askedScopes' | 'refusedScopes'
>;

/**
 * The peer's metadata served before the SDK's, so a test can switch it: the authorization server metadata with
 * `authorization_response_iss_parameter_supported` (RFC 9207) when advertised, and protected resource metadata
 * naming another authorization server.
 */
export function serveSwitchableMetadata(app: Express, peer: Switches, metadata: OAuthMetadata, mcpUrl: URL): void {
  app.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.json({ ...metadata, ...(peer.iss.advertised ? { authorization_response_iss_parameter_supported: true } : {}) });
  });
  app.get(['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource'], (_req, res) => {
    res.json({
      resource: mcpUrl.href,
      authorization_servers: [peer.authorizationServer ?? metadata.issuer],
      scopes_supported: ['tools'],
    });
  });
}

function presented(authorization: string | undefined, body: Record<string, string>): [string?, string?] {
  const basic = /^Basic (.+)$/.exec(authorization ?? '')?.[1];
  if (!basic) return [body.client_id, body.client_secret];
  const [id, secret] = Buffer.from(basic, 'base64').toString().split(':').map(decodeURIComponent);
  return [id, secret];
}

/**
 * In front of the SDK's token endpoint: records every client secret presented, answers the client credentials
 * grant (which the SDK's endpoint does not) for a client with a secret (invalid_scope for a refused scope), and hands the rest on with the client's
 * credentials in the body (where the SDK's endpoint reads them).
 */
export function tokenExtras(provider: PeerProvider, peer: Switches): RequestHandler {
  return (req, res, next) => {
    const body = (req.body ?? {}) as Record<string, string>;
    const [id, secret] = presented(req.headers.authorization, body);
    if (secret !== undefined) peer.presentedSecrets.push(secret);
    if (body.grant_type !== 'client_credentials') {
      Object.assign(
        body,
        id === undefined ? {} : { client_id: id },
        secret === undefined ? {} : { client_secret: secret },
      );
      return next();
    }
    const client = id === undefined ? undefined : provider.clients.get(id);
    if (!client?.client_secret || client.client_secret !== secret) {
      res.status(401).json({ error: 'invalid_client', error_description: 'unknown client or wrong secret' });
      return;
    }
    peer.grants.push('client_credentials');
    peer.askedScopes.push(body.scope ?? '');
    const refused = (body.scope ?? '').split(' ').find((scope) => peer.refusedScopes.includes(scope));
    if (refused) {
      res.status(400).json({ error: 'invalid_scope', error_description: `scope ${refused} is not granted` });
      return;
    }
    res.json(provider.issue(client.client_id, body.scope ? body.scope.split(' ') : [], peer.ttl.code));
  };
}
