import type { OAuthClientProvider, OAuthDiscoveryState } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { McpServer } from '../../../../db/tables/mcp.table';
import {
  assayClientMetadata,
  oauthCallbackUrl,
  writeOauthRecord,
  type OauthClientUrls,
  type OauthVaultRecord,
} from '../../../mcp/oauth-vault';
import type { CredentialVault } from '../../../vault/credential-vault';

/** The server needs a person to authorize it (again); the message says why, without any secret. */
export class AuthorizationRequiredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthorizationRequiredError';
  }
}

/** An authorization server Assay refuses to use (no PKCE S256); retrying will not help. */
export class OauthRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OauthRefusedError';
  }
}

/**
 * The SDK's `OAuthClientProvider` for one server, backed by its vault record (every save writes it back).
 * `authorize`: an authorization may start (the verifier is stored, the URL kept for the api to hand out);
 * `use`: only tokens may be obtained (refresh, client credentials); a new authorization throws
 * {@link AuthorizationRequiredError} before anything is stored.
 */
export class VaultOAuthProvider implements OAuthClientProvider {
  authorizationUrl: URL | undefined;
  /** Set when the authorization server refused the stored tokens (a failed refresh). */
  private refused = false;

  constructor(
    private readonly vault: CredentialVault,
    private readonly server: McpServer,
    readonly record: OauthVaultRecord,
    private readonly client: OauthClientUrls,
    private readonly mode: 'authorize' | 'use',
  ) {}

  private get interactive(): boolean {
    return this.server.auth_type === 'oauth';
  }

  private save(): Promise<void> {
    return writeOauthRecord(this.vault, this.server, this.record);
  }

  // The metadata document is one for every server, so it lists the shared redirect URI; any other client of Assay
  // (registered per server, or pre-registered for one) is sent back to its server's own.
  get redirectUrl(): string | undefined {
    if (!this.interactive) return undefined;
    const shared = this.record.client?.client_id === this.client.metadataUrl;
    return oauthCallbackUrl(this.client.publicUrl, shared ? undefined : this.server.id);
  }

  // The SDK accepts a metadata document only at an https URL (SEP-991); elsewhere it registers dynamically.
  get clientMetadataUrl(): string | undefined {
    return this.interactive && this.client.metadataUrl.startsWith('https://') ? this.client.metadataUrl : undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.server.oauth_scopes ?? undefined;
    if (!this.interactive)
      return {
        client_name: 'Assay',
        redirect_uris: [],
        grant_types: ['client_credentials'],
        token_endpoint_auth_method: 'client_secret_basic',
        scope: this.record.scope ?? scope,
      };
    const { client_id: _id, ...metadata } = assayClientMetadata(this.client);
    const redirect_uris = [oauthCallbackUrl(this.client.publicUrl, this.server.id)];
    return { ...(metadata as unknown as OAuthClientMetadata), redirect_uris, scope };
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.server.oauth_client_id) return this.preRegistered(this.server.oauth_client_id);
    const client = this.record.client;
    // Registered before redirect URIs were per server: registered again, with this server's.
    const redirects = client?.redirect_uris;
    if (this.mode === 'authorize' && Array.isArray(redirects) && !redirects.includes(this.redirectUrl))
      return undefined;
    return client as unknown as OAuthClientInformationMixed | undefined;
  }

  // Bound to the authorization server it is first presented to: another one never sees its id or its secret.
  private async preRegistered(clientId: string): Promise<OAuthClientInformationMixed> {
    const issuer = this.discoveryState()?.authorizationServerUrl;
    const stamped = this.record.client?.client_id === clientId ? this.record.client.issuer : undefined;
    const bound = typeof stamped === 'string' ? stamped : undefined;
    if (bound === undefined && issuer !== undefined) {
      this.record.client = { client_id: clientId, issuer };
      await this.save();
    } else if (bound !== undefined && issuer !== undefined && bound !== issuer)
      throw new OauthRefusedError(
        `the pre-registered client ${clientId} is bound to the authorization server ${bound}, and the server now ` +
          `names ${issuer}: Assay does not present the client there (give auth.client_secret again, or register ` +
          'the server again)',
      );
    return { client_id: clientId, client_secret: this.record.client_secret, issuer: bound ?? issuer };
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    const { issuer } = information as { issuer?: string };
    this.record.client = this.server.oauth_client_id
      ? { client_id: this.server.oauth_client_id, issuer } // its secret stays in client_secret only
      : (information as unknown as Record<string, unknown>);
    await this.save();
  }

  tokens(): OAuthTokens | undefined {
    return this.record.tokens as OAuthTokens | undefined;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    const expiresAt = tokens.expires_in === undefined ? undefined : Date.now() + tokens.expires_in * 1000;
    // A refresh that answers no new refresh token keeps the old one (RFC 6749 §6); a new one replaces it (rotation).
    const refresh = tokens.refresh_token ?? this.record.tokens?.refresh_token;
    this.record.tokens = { ...tokens, refresh_token: refresh, expires_at: expiresAt };
    await this.save();
  }

  redirectToAuthorization(authorizationUrl: URL): void {
    this.authorizationUrl = authorizationUrl;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    if (this.mode === 'use')
      throw new AuthorizationRequiredError(
        this.refused
          ? 'token refresh failed: the authorization server refused the refresh token; authorize again (POST …/authorize)'
          : 'the server needs a new authorization (POST …/authorize)',
      );
    this.record.verifier = codeVerifier;
    await this.save();
  }

  codeVerifier(): string {
    if (!this.record.verifier) throw new AuthorizationRequiredError('no authorization is in progress for this server');
    return this.record.verifier;
  }

  prepareTokenRequest(scope?: string): URLSearchParams | undefined {
    if (this.interactive) return undefined;
    const params = new URLSearchParams({ grant_type: 'client_credentials' });
    if (scope) params.set('scope', scope);
    return params;
  }

  // PKCE S256 always: an authorization server that does not advertise it is refused before any request to it.
  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    const methods = state.authorizationServerMetadata?.code_challenge_methods_supported;
    if (this.interactive && !methods?.includes('S256'))
      throw new OauthRefusedError(
        `the authorization server ${state.authorizationServerUrl} does not advertise PKCE S256 ` +
          '(code_challenge_methods_supported); Assay does not authorize against it',
      );
    this.record.discovery = state as unknown as Record<string, unknown>;
    await this.save();
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.record.discovery as unknown as OAuthDiscoveryState | undefined;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    // A pre-registered client cannot be registered again: it keeps the authorization server it is bound to.
    if ((scope === 'all' || scope === 'client') && !this.server.oauth_client_id) delete this.record.client;
    if (scope === 'all' || scope === 'tokens') {
      this.refused = this.record.tokens !== undefined;
      delete this.record.tokens;
    }
    if (scope === 'all' || scope === 'verifier') delete this.record.verifier;
    if (scope === 'all' || scope === 'discovery') delete this.record.discovery;
    await this.save();
  }
}
