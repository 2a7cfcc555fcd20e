import type { McpServer } from '../../db/tables/mcp.table';
import type { Config } from '../config';
import type { CredentialVault } from '../vault/credential-vault';

/**
 * Where an OAuth server's secrets live: one vault record per server (client secret, registered client, tokens, the
 * PKCE verifier of the authorization in flight, cached discovery) and, for the moment between callback and exchange,
 * the authorization code under its own id. Postgres holds none of them; workflows carry only the server's id.
 */

/** An OAuth server's vault record; fields are the SDK's shapes, kept as JSON (lib/ does not load the SDK). */
export interface OauthVaultRecord {
  /** The pre-registered client secret given at registration. */
  client_secret?: string;
  /**
   * The client as registered (dynamically, or by metadata document), stamped with the authorization server it was
   * registered at; for a pre-registered client, only its id and the authorization server it was first presented to.
   */
  client?: Record<string, unknown>;
  /** The tokens, with `expires_at` (epoch ms) computed when they were saved. */
  tokens?: { access_token: string; refresh_token?: string; expires_at?: number } & Record<string, unknown>;
  verifier?: string;
  discovery?: Record<string, unknown>;
  /** The scope a server asked for with 403 `insufficient_scope`, and how many authorizations asked for it since. */
  step_up?: { scope: string; attempts: number };
  /** Client credentials: the scope token requests ask for once a step-up widened the registered scopes. */
  scope?: string;
}

const recordRef = (server: Pick<McpServer, 'id' | 'workspace_id'>) => ({
  workspaceId: server.workspace_id,
  credentialId: `mcp-oauth:${server.id}`,
});
const codeRef = (server: Pick<McpServer, 'id' | 'workspace_id'>) => ({
  workspaceId: server.workspace_id,
  credentialId: `mcp-oauth-code:${server.id}`,
});

type ServerKey = Pick<McpServer, 'id' | 'workspace_id'>;

/** The server's OAuth record; empty when none is stored. */
export async function readOauthRecord(vault: CredentialVault, server: ServerKey): Promise<OauthVaultRecord> {
  const stored = await vault.get(recordRef(server));
  return stored === null ? {} : (JSON.parse(stored) as OauthVaultRecord);
}

export async function writeOauthRecord(vault: CredentialVault, server: ServerKey, record: OauthVaultRecord) {
  await vault.put(recordRef(server), JSON.stringify(record));
}

/** Removes everything OAuth of a server (its record and any code waiting for exchange). */
export async function deleteOauthSecrets(vault: CredentialVault, server: ServerKey): Promise<void> {
  await vault.delete(recordRef(server));
  await vault.delete(codeRef(server));
}

/** What a callback brought: the code, the redirect URI it arrived at, and the `iss` parameter (RFC 9207) if any. */
export interface AuthorizationResponse {
  code: string;
  redirect_uri: string;
  iss?: string;
}

/** The api stores a callback's code here, so it reaches the worker's exchange without entering Temporal history. */
export async function putAuthorizationCode(
  vault: CredentialVault,
  server: ServerKey,
  response: AuthorizationResponse,
): Promise<void> {
  await vault.put(codeRef(server), JSON.stringify(response));
}

/** Reads and deletes the waiting code (one exchange per code). */
export async function takeAuthorizationCode(
  vault: CredentialVault,
  server: ServerKey,
): Promise<AuthorizationResponse | null> {
  const stored = await vault.get(codeRef(server));
  if (stored === null) return null;
  await vault.delete(codeRef(server));
  return JSON.parse(stored) as AuthorizationResponse;
}

/** Assay as an OAuth client: its public origin (the redirect URI's) and its Client ID Metadata Document's URL. */
export interface OauthClientUrls {
  publicUrl: string;
  metadataUrl: string;
}

type UrlConfig = Pick<Config, 'ASSAY_PUBLIC_URL' | 'ASSAY_HOST' | 'ASSAY_PORT' | 'ASSAY_OAUTH_CLIENT_METADATA_URL'>;

/** From the config: the origin browsers reach, and where the metadata document is published (default: served here). */
export function oauthClientUrls(config: UrlConfig): OauthClientUrls {
  const publicUrl = (config.ASSAY_PUBLIC_URL ?? `http://${config.ASSAY_HOST}:${config.ASSAY_PORT}`).replace(/\/+$/, '');
  return {
    publicUrl,
    metadataUrl: config.ASSAY_OAUTH_CLIENT_METADATA_URL ?? `${publicUrl}/oauth/client-metadata.json`,
  };
}

/**
 * Assay's redirect URI: per server (`/oauth/callback/{server id}`), so an authorization server can only send a code
 * back to the server whose authorization asked it; without a server, the one of the shared metadata document.
 */
export const oauthCallbackUrl = (publicUrl: string, serverId?: string): string =>
  serverId === undefined ? `${publicUrl}/oauth/callback` : `${publicUrl}/oauth/callback/${serverId}`;

/** Assay's OAuth client metadata: served as its Client ID Metadata Document and sent in dynamic registration. */
export function assayClientMetadata({ publicUrl, metadataUrl }: OauthClientUrls): Record<string, unknown> {
  return {
    client_id: metadataUrl,
    client_name: 'Assay',
    client_uri: publicUrl,
    redirect_uris: [oauthCallbackUrl(publicUrl)],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}
