import { sql } from 'kysely';
import type { Db } from '../../../db/database';
import { findMcpServer } from '../../../db/mcp-server.repository';
import type { McpServer } from '../../../db/tables/mcp.table';
import { resolveHeaders } from '../../../domain/mcp/mcp-headers';
import { unpinnedCommandProblem } from '../../../domain/mcp/package-pin';
import type { OauthClientUrls } from '../../mcp/oauth-vault';
import type { CredentialVault } from '../../vault/credential-vault';
import type { EgressGuard } from '../egress/egress-guard';
import type { McpTarget } from './mcp-session';
import { oauthHeaders } from './oauth/oauth-headers';
import { stepUpClientCredentials } from './oauth/client-credentials-step-up';
import { recordStepUp } from './oauth/oauth-step-up';

/** A server, how to reach it, and the secret values any message about it must not contain. */
export interface ResolvedServer {
  server: McpServer;
  target: McpTarget;
  secretValues: string[];
}

/** A server that cannot be dialled as configured (missing, secret gone, catalog entry gone); retrying will not help. */
export class McpTargetError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'McpTargetError';
  }
}

/** Reads a server's secrets from the vault; stored as one JSON object of name → value under its credential id. */
export async function readServerSecrets(vault: CredentialVault, server: McpServer): Promise<Record<string, string>> {
  if (server.secret_names.length === 0) return {};
  const stored = await vault.get({ workspaceId: server.workspace_id, credentialId: server.credential_id });
  if (stored === null) throw new McpTargetError(`credential ${server.credential_id} is missing from the vault`);
  let secrets: unknown;
  try {
    secrets = JSON.parse(stored);
  } catch {
    throw new McpTargetError(`credential ${server.credential_id} is not readable`);
  }
  return secrets as Record<string, string>;
}

async function stdioTarget(db: Db, server: McpServer, secrets: Record<string, string>): Promise<McpTarget> {
  const entry = server.catalog_id
    ? await db.selectFrom('mcp_catalog_entries').selectAll().where('id', '=', server.catalog_id).executeTakeFirst()
    : undefined;
  // Re-checked here: only operator (global) entries may run commands, whatever the server row says.
  if (!entry || entry.transport !== 'stdio_curated' || entry.workspace_id !== null || !Array.isArray(entry.command)) {
    throw new McpTargetError('the curated catalog entry of this stdio server is gone');
  }
  // An entry stored before the pin rule (and since dropped from the operator file) does not run either.
  const unpinned = unpinnedCommandProblem(entry.command);
  if (unpinned) throw new McpTargetError(`the curated catalog entry's command ${unpinned}`);
  const mapping = entry.env ?? {};
  const env: Record<string, string> = {};
  for (const [variable, secretName] of Object.entries(mapping)) {
    if (secrets[secretName] === undefined)
      throw new McpTargetError(`secret ${secretName} is not stored for this server`);
    env[variable] = secrets[secretName];
  }
  return { transport: 'stdio_curated', command: entry.command, env };
}

/** What an OAuth server's token needs besides Postgres and the vault: the egress guard and Assay's public origin. */
export interface OauthAccess {
  guard: EgressGuard;
  oauthClient: OauthClientUrls;
}

// The bearer header of an OAuth server, and how to replace a token the server rejected (one refresh, then retry).
async function withOauth(
  db: Db,
  vault: CredentialVault,
  server: McpServer,
  oauth: OauthAccess | undefined,
  headers: Record<string, string>,
): Promise<Pick<Extract<McpTarget, { transport: 'http' }>, 'headers' | 'reauthorize' | 'onInsufficientScope'>> {
  if (!server.auth_type) return { headers };
  if (!oauth) throw new McpTargetError('this caller cannot use OAuth servers');
  const deps = { db, vault, ...oauth };
  const bearer = (rejected?: string) =>
    oauthHeaders(deps, server, rejected).catch((error: unknown) => {
      throw new McpTargetError((error as Error).message, { cause: error });
    });
  const auth = await bearer();
  return {
    headers: { ...headers, ...auth },
    reauthorize: async (rejected) => ({
      ...headers,
      ...(await bearer(rejected.Authorization?.replace(/^Bearer /, ''))),
    }),
    // A person answers an authorization-code server's step-up; a client-credentials server asks for a new token.
    onInsufficientScope: (scope, presented) =>
      server.auth_type === 'oauth'
        ? recordStepUp({ db, vault }, server, scope)
        : stepUpClientCredentials(deps, server, scope, presented),
  };
}

/**
 * Loads a workspace's server and resolves its target: `$SECRET` header references or the stdio env mapping, and for
 * an OAuth server its bearer token (refreshed when due; see `oauthHeaders`).
 */
export async function resolveServerTarget(
  db: Db,
  vault: CredentialVault,
  workspaceId: string,
  serverId: string,
  oauth?: OauthAccess,
): Promise<ResolvedServer> {
  // Both reads under a share lock of the row: an update holds it exclusively from its vault write to its commit, so
  // the url and headers read here always belong with the secrets read here (never a new secret for the old host).
  const { server, secrets } = await db.transaction().execute(async (trx) => {
    await sql`SET LOCAL lock_timeout = '2s'`.execute(trx);
    const row = await findMcpServer(trx, workspaceId, serverId, 'share');
    if (!row) throw new McpTargetError('MCP server not found');
    return { server: row, secrets: await readServerSecrets(vault, row) };
  });
  const secretValues = Object.values(secrets);
  if (server.transport === 'stdio_curated')
    return { server, target: await stdioTarget(db, server, secrets), secretValues };
  const { config } = server;
  if (!config.url) throw new McpTargetError('the server has no url');
  let headers: Record<string, string>;
  try {
    headers = resolveHeaders(config.headers ?? {}, secrets);
  } catch (error) {
    throw new McpTargetError((error as Error).message);
  }
  const authorized = await withOauth(db, vault, server, oauth, headers);
  const token = authorized.headers.Authorization?.replace(/^Bearer /, '');
  return {
    server,
    target: { transport: 'http', url: config.url, ...authorized },
    secretValues: token && server.auth_type ? [...secretValues, token] : secretValues,
  };
}
