import crypto from 'node:crypto';
import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type NextFunction, type Request, type Response } from 'express';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { InvalidGrantError, InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { serveSwitchableMetadata, tokenExtras } from './oauth-peer-extras';

/**
 * A real OAuth 2.1 authorization server (the SDK's server auth router: metadata, dynamic registration, authorize,
 * token with PKCE) and a protected MCP server (bearer auth, RFC 9728 metadata, one `whoami` tool) on one loopback
 * port. Its authorize step approves at once, as a person clicking "allow" would. Refresh tokens rotate: each is good
 * once. A JSON-RPC method may require a scope beyond a good token (a step-up: 403 `insufficient_scope` asking for it).
 * What it issued and saw is exposed so tests can tell what Assay did.
 */
export interface OauthPeer {
  /** The MCP endpoint to register. */
  url: string;
  /** Seconds the next issued access tokens live (first from a code, then from refreshes). */
  ttl: { code: number; refresh: number };
  /** Every token and client secret issued so far (tests look for them where they must not be). */
  issued: string[];
  /** From now on a JSON-RPC method (`initialize`, `tools/list`, `tools/call` …) requires its scope; none by default. */
  requireScopes(byMethod: Record<string, string>): void;
  /** Grants seen at the token endpoint, in order (`authorization_code`, `refresh_token`). */
  grants: string[];
  /** The refresh tokens still good. */
  liveRefreshTokens(): string[];
  /** Revokes every token: the server answers 401, and a refresh fails with invalid_grant. */
  revokeAll(): void;
  /** Its issuer identifier, as its metadata says it. */
  issuer: string;
  /** Every client secret presented at its token endpoint (basic or post). */
  presentedSecrets: string[];
  /** The scope of every client credentials request, in order (`""` when it asks for none). */
  askedScopes: string[];
  /** Scopes its token endpoint refuses to a client credentials request (400 invalid_scope); none by default. */
  refusedScopes: string[];
  /** Adds a client registered out of band (client credentials work for one with a secret). */
  preRegister(client: { client_id: string; client_secret?: string; redirect_uris: string[] }): void;
  /** RFC 9207: whether the metadata advertises `iss` in responses, and the `iss` its authorize step sends (if any). */
  iss: { advertised: boolean; sent?: string };
  /** The authorization server its protected resource metadata names (default: itself). */
  authorizationServer?: string;
  close(): Promise<void>;
}

interface Issued {
  clientId: string;
  scopes: string[];
  expiresAt: number;
  resource?: URL;
}

/** The peer's authorization server: clients, codes and tokens it issued. */
export class PeerProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, { client: OAuthClientInformationFull; params: AuthorizationParams }>();
  readonly access = new Map<string, Issued>();
  readonly refresh = new Map<string, Issued>();

  constructor(private readonly peer: Pick<OauthPeer, 'ttl' | 'issued' | 'grants' | 'iss'>) {}

  get clientsStore() {
    return {
      getClient: async (id: string) => this.clients.get(id),
      registerClient: async (client: OAuthClientInformationFull) => {
        this.clients.set(client.client_id, client);
        if (client.client_secret) this.peer.issued.push(client.client_secret);
        return client;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Response): Promise<void> {
    const code = crypto.randomBytes(24).toString('base64url');
    this.codes.set(code, { client, params });
    this.peer.issued.push(code);
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    if (this.peer.iss.sent !== undefined) target.searchParams.set('iss', this.peer.iss.sent);
    res.redirect(target.toString());
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new InvalidGrantError('unknown authorization code');
    return found.params.codeChallenge;
  }

  issue(clientId: string, scopes: string[], ttl: number, resource?: URL): OAuthTokens {
    const accessToken = `at-${crypto.randomBytes(24).toString('base64url')}`;
    const refreshToken = `rt-${crypto.randomBytes(24).toString('base64url')}`;
    this.access.set(accessToken, { clientId, scopes, expiresAt: Date.now() + ttl * 1000, resource });
    this.refresh.set(refreshToken, { clientId, scopes, expiresAt: Date.now() + 86_400_000, resource });
    this.peer.issued.push(accessToken, refreshToken);
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: ttl,
      refresh_token: refreshToken,
      scope: scopes.join(' '),
    };
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.client.client_id !== client.client_id) throw new InvalidGrantError('bad authorization code');
    this.codes.delete(code);
    this.peer.grants.push('authorization_code');
    return this.issue(client.client_id, found.params.scopes ?? [], this.peer.ttl.code, found.params.resource);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    const found = this.refresh.get(refreshToken);
    this.peer.grants.push('refresh_token');
    if (!found || found.clientId !== client.client_id) throw new InvalidGrantError('refresh token not valid');
    this.refresh.delete(refreshToken); // rotation: a refresh token is good once
    return this.issue(client.client_id, found.scopes, this.peer.ttl.refresh, found.resource);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    if (!found || found.expiresAt < Date.now()) throw new InvalidTokenError('token expired or unknown');
    return {
      token,
      clientId: found.clientId,
      scopes: found.scopes,
      expiresAt: Math.floor(found.expiresAt / 1000),
      resource: found.resource,
    };
  }
}

/** Starts the peer on 127.0.0.1 and a free port. */
export async function startOauthPeer(): Promise<OauthPeer> {
  const peer = {
    ttl: { code: 3600, refresh: 3600 },
    issued: [] as string[],
    grants: [] as string[],
    presentedSecrets: [] as string[],
    askedScopes: [] as string[],
    refusedScopes: [] as string[],
    iss: { advertised: false } as OauthPeer['iss'],
    authorizationServer: undefined as string | undefined,
  };
  let requiredScopes: Record<string, string> = {};
  const provider = new PeerProvider(peer);
  const app = express();
  const server: http.Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const mcpUrl = new URL('/mcp', origin);
  const options = { provider, issuerUrl: new URL(origin), resourceServerUrl: mcpUrl, scopesSupported: ['tools'] };
  const metadata = createOAuthMetadata(options);
  serveSwitchableMetadata(app, peer, metadata, mcpUrl);
  app.post('/token', express.urlencoded({ extended: false }), tokenExtras(provider, peer));
  app.use(mcpAuthRouter(options));
  // RFC 6750 bearer check with the RFC 9728 challenge (the SDK's middleware retypes express's Request.auth, which
  // the api uses for its own context, so the few lines are written here).
  const metadataUrl = getOAuthProtectedResourceMetadataUrl(mcpUrl);
  const challenge = `Bearer error="invalid_token", resource_metadata="${metadataUrl}"`;
  const tokenOf = (req: Request): string => /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '';
  const bearer = (req: Request, res: Response, next: NextFunction): void => {
    provider.verifyAccessToken(tokenOf(req)).then(
      () => next(),
      () => void res.status(401).set('WWW-Authenticate', challenge).json({ error: 'invalid_token' }),
    );
  };
  const stepUp = (req: Request, res: Response, next: NextFunction): void => {
    const required = requiredScopes[String((req.body as { method?: unknown } | undefined)?.method)];
    const granted = provider.access.get(tokenOf(req))?.scopes ?? [];
    if (!required || required.split(' ').every((scope) => granted.includes(scope))) return next();
    const asked = `Bearer error="insufficient_scope", scope="${required}", resource_metadata="${metadataUrl}"`;
    res.status(403).set('WWW-Authenticate', asked).json({ error: 'insufficient_scope' });
  };
  app.post('/mcp', bearer, express.json(), stepUp, async (req, res) => {
    const mcp = new McpServer({ name: 'oauth-peer', version: '1.0.0' });
    mcp.registerTool('whoami', { description: 'Says who answers' }, async () => ({
      content: [{ type: 'text', text: 'the oauth peer' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => void transport.close());
    await mcp.connect(transport);
    await transport.handleRequest(req as unknown as http.IncomingMessage, res, req.body);
  });
  for (const method of ['get', 'delete'] as const)
    app[method]('/mcp', bearer, (_req, res) => void res.status(405).end());
  // The same object the provider and the extras read, so a test's switches reach them.
  return Object.assign(peer, {
    url: mcpUrl.toString(),
    issuer: metadata.issuer,
    preRegister: (client: Parameters<OauthPeer['preRegister']>[0]) =>
      void provider.clients.set(client.client_id, client),
    liveRefreshTokens: () => [...provider.refresh.keys()],
    requireScopes: (byMethod: Record<string, string>) => void (requiredScopes = byMethod),
    revokeAll: () => {
      provider.access.clear();
      provider.refresh.clear();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
