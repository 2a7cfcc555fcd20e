import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import { sql } from 'kysely';
import type { Db } from '../../../../db/database';
import { markAuthorizationRequired } from '../../../../db/mcp-oauth.repository';
import type { McpServer } from '../../../../db/tables/mcp.table';
import { readOauthRecord, type OauthClientUrls, type OauthVaultRecord } from '../../../mcp/oauth-vault';
import type { CredentialVault } from '../../../vault/credential-vault';
import type { EgressGuard } from '../../egress/egress-guard';
import { cappedFetch } from '../capped-fetch';
import { AuthorizationRequiredError, OauthRefusedError, VaultOAuthProvider } from './vault-oauth-provider';

/** What obtaining a server's token needs: Postgres (the lock, the status), the vault, the guard, Assay's origin. */
export interface OauthDeps {
  db: Db;
  vault: CredentialVault;
  guard: EgressGuard;
  oauthClient: OauthClientUrls;
}

/** A token this close to its expiry is refreshed before use. */
export const TOKEN_REFRESH_MARGIN_MS = 60_000;

/** Every OAuth request (discovery, registration, token) goes through the egress guard, its body capped. */
export const oauthFetch = (guard: EgressGuard): FetchLike => cappedFetch(guard.fetch as unknown as FetchLike).fetch;

const usable = (record: OauthVaultRecord, rejected: string | undefined): string | undefined => {
  const tokens = record.tokens;
  if (!tokens || tokens.access_token === rejected) return undefined;
  if (tokens.expires_at !== undefined && tokens.expires_at - Date.now() < TOKEN_REFRESH_MARGIN_MS) return undefined;
  return tokens.access_token;
};

const bearer = (token: string): Record<string, string> => ({ Authorization: `Bearer ${token}` });

/** Runs `use` holding the server's OAuth lock (a Postgres advisory lock: one refresh at a time across workers). */
export async function withOauthLock<T>(db: Db, serverId: string, use: () => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(hashtextextended(${`mcp-oauth:${serverId}`}, 0))`.execute(trx);
    return use();
  });
}

async function obtainToken(deps: OauthDeps, server: McpServer, rejected: string | undefined): Promise<string> {
  const record = await readOauthRecord(deps.vault, server);
  const current = usable(record, rejected);
  if (current) return current; // another caller refreshed while this one waited for the lock
  if (server.auth_type === 'oauth' && !record.tokens)
    throw new AuthorizationRequiredError('the server has not been authorized yet (POST …/authorize)');
  if (rejected && record.tokens) delete record.tokens.expires_at; // a rejected token is refreshed whatever its expiry
  const provider = new VaultOAuthProvider(deps.vault, server, record, deps.oauthClient, 'use');
  const result = await auth(provider, { serverUrl: server.config.url ?? '', fetchFn: oauthFetch(deps.guard) });
  const token = provider.record.tokens?.access_token;
  if (result !== 'AUTHORIZED' || !token || token === rejected)
    throw new AuthorizationRequiredError('the authorization server gave no new token');
  return token;
}

/**
 * The `Authorization` header of an OAuth server (none for others): the stored access token while it is good, else a
 * refresh (rotating the refresh token when the authorization server does) or a new client-credentials token, under
 * the server's lock so concurrent callers refresh once. `rejected` is a token the server answered 401 to: it is
 * replaced whatever its expiry. When no token can be had, an authorization-code server goes to
 * `authorization_required` (with the reason as its last error) and {@link AuthorizationRequiredError} is thrown (the
 * error every failure path recognises as "leave the status alone").
 */
export async function oauthHeaders(
  deps: OauthDeps,
  server: McpServer,
  rejected?: string,
): Promise<Record<string, string>> {
  if (!server.auth_type) return {};
  const fast = usable(await readOauthRecord(deps.vault, server), rejected);
  if (fast) return bearer(fast);
  try {
    return bearer(await withOauthLock(deps.db, server.id, () => obtainToken(deps, server, rejected)));
  } catch (error) {
    const reason =
      error instanceof AuthorizationRequiredError
        ? error.message
        : `token refresh failed: ${describeOauthError(error)}`;
    const message = `authorization required: ${reason}`;
    if (error instanceof OauthRefusedError) throw error;
    // Only a person can authorize: a client-credentials server that gets no token fails as any other error.
    if (server.auth_type !== 'oauth') throw new Error(message);
    await markAuthorizationRequired(deps.db, server.id, message);
    throw new AuthorizationRequiredError(message);
  }
}

/** The SDK's OAuth errors name the error code and the server's description; no token or secret is in them. */
export function describeOauthError(error: unknown): string {
  return error instanceof Error ? error.message.slice(0, 500) : String(error).slice(0, 500);
}
