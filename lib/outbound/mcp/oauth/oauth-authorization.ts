import { auth, extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { markAuthorized } from '../../../../db/mcp-oauth.repository';
import type { McpServer } from '../../../../db/tables/mcp.table';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';
import {
  readOauthRecord,
  takeAuthorizationCode,
  writeOauthRecord,
  type AuthorizationResponse,
} from '../../../mcp/oauth-vault';
import { oauthFetch, withOauthLock, type OauthDeps } from './oauth-headers';
import { stepUpScope } from './oauth-step-up';
import { AuthorizationRequiredError, VaultOAuthProvider } from './vault-oauth-provider';

/** What the server's 401 asks for (RFC 9728 `resource_metadata`, the `scope` challenge); empty when it does not. */
async function challengeOf(url: string, fetch: FetchLike): Promise<{ resourceMetadataUrl?: URL; scope?: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: {
        protocolVersion: LATEST_PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: 'assay', version: '0.1.0' },
      },
    }),
  });
  await response.body?.cancel().catch(() => undefined);
  if (response.status !== 401 && response.status !== 403) return {};
  const { resourceMetadataUrl, scope } = extractWWWAuthenticateParams(response);
  return { resourceMetadataUrl, scope };
}

/**
 * Starts an authorization: discovery (from the server's 401 challenge, RFC 9728 and RFC 8414 / OIDC discovery),
 * the client identity (pre-registered, metadata document, or dynamic registration), PKCE S256 (the verifier goes
 * to the vault) and the `resource` indicator. Answers the authorization URL without `state`: the api adds the state
 * it keeps, so it never passes through a workflow.
 */
export async function beginAuthorization(deps: OauthDeps, server: McpServer): Promise<string> {
  const url = server.config.url ?? '';
  const fetchFn = oauthFetch(deps.guard);
  return withOauthLock(deps.db, server.id, async () => {
    const record = await readOauthRecord(deps.vault, server);
    const { tokens: _kept, ...withoutTokens } = record;
    // A new authorization starts from fresh discovery and never refreshes the old tokens (kept until the exchange).
    delete withoutTokens.discovery;
    const provider = new VaultOAuthProvider(deps.vault, server, withoutTokens, deps.oauthClient, 'authorize');
    const challenge = await challengeOf(url, fetchFn);
    try {
      const stepUp = stepUpScope(provider.record);
      const result = await auth(provider, {
        serverUrl: url,
        fetchFn,
        ...challenge,
        ...(stepUp ? { scope: stepUp } : {}),
      });
      if (result !== 'REDIRECT' || !provider.authorizationUrl)
        throw new AuthorizationRequiredError('the authorization server did not start an authorization');
      return provider.authorizationUrl.toString();
    } finally {
      // The provider saves its record without the tokens: they are put back whether this start succeeded or failed
      // half-way (after a registration, say), so working tokens stay until an exchange replaces them.
      if (record.tokens) await writeOauthRecord(deps.vault, server, { ...provider.record, tokens: record.tokens });
    }
  });
}

/**
 * A code is redeemed only where it was asked for: it arrived at the redirect URI this authorization sent, and the
 * `iss` it came with (RFC 9207) names the authorization server discovered for it; one that advertises
 * `authorization_response_iss_parameter_supported` must send it.
 */
function checkAuthorizationResponse(provider: VaultOAuthProvider, response: AuthorizationResponse): void {
  if (response.redirect_uri !== provider.redirectUrl)
    throw new AuthorizationRequiredError(
      'the code arrived at another redirect URI than this authorization sent; authorize again',
    );
  const discovery = provider.discoveryState();
  const metadata = discovery?.authorizationServerMetadata as
    { issuer?: string; authorization_response_iss_parameter_supported?: boolean } | undefined;
  const issuer = metadata?.issuer ?? discovery?.authorizationServerUrl;
  const required = metadata?.authorization_response_iss_parameter_supported === true;
  if (response.iss === undefined ? required : response.iss !== issuer)
    throw new AuthorizationRequiredError(
      `the authorization response names issuer ${response.iss?.slice(0, 200) ?? '(none)'}, not ${issuer} that was ` +
        'asked (RFC 9207); authorize again',
    );
}

/** Exchanges the code the callback stored (read once, then deleted) for tokens; the server becomes `pending`. */
export async function completeAuthorization(deps: OauthDeps, server: McpServer): Promise<void> {
  await withOauthLock(deps.db, server.id, async () => {
    const response = await takeAuthorizationCode(deps.vault, server);
    if (response === null) throw new AuthorizationRequiredError('no authorization code is waiting for this server');
    const record = await readOauthRecord(deps.vault, server);
    const provider = new VaultOAuthProvider(deps.vault, server, record, deps.oauthClient, 'authorize');
    checkAuthorizationResponse(provider, response);
    await auth(provider, {
      serverUrl: server.config.url ?? '',
      authorizationCode: response.code,
      fetchFn: oauthFetch(deps.guard),
    });
    delete provider.record.verifier;
    await writeOauthRecord(deps.vault, server, provider.record);
  });
  await markAuthorized(deps.db, server.id);
}
