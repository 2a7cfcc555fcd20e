import path from 'node:path';
import { createDb, type Db } from '../db/database';
import { InvalidCursorError } from '../db/keyset-page';
import { ensureUser, findUserByEmail, grantOperator, isInvitedUser, isOperator } from '../db/account.repository';
import { listUserApiTokens, revokeApiToken } from '../db/api-token.repository';
import { upsertMembership } from '../db/member.repository';
import { createWorkspace, findFirstWorkspace } from '../db/workspace.repository';
import { LIMITS } from '../domain/limits';
import { ROLES } from '../domain/tenancy/permissions';
import { personalTokenExpiry, tokenLifetimeProblem } from '../domain/tenancy/token-lifetime';
import { issueToken } from '../lib/api-tokens';
import { loadConfig } from '../lib/config';
import { embeddedDatabaseUrl } from '../lib/embedded/postgres-cluster';

export interface TokenCreateOptions {
  email: string;
  name?: string;
  workspace?: string;
  /** Default: builder. */
  role?: string;
  /** Whole days, checked by the option's parser. */
  expiresInDays?: number;
  /** Also make the user an instance operator (the Temporal UI's codec). */
  operator?: boolean;
  /** With `operator`: even a user made by an invitation. */
  force?: boolean;
}

function database(config = loadConfig()): ReturnType<typeof createDb> {
  return createDb(config.DATABASE_URL ?? embeddedDatabaseUrl(path.join(config.dataDir, 'postgres'), config.PG_PORT), 2);
}

// An operator's codec decrypts every workspace: a user an invitation made (whose first token the inviter held) becomes
// one only when asked explicitly.
async function refuseInvitedOperator(db: Db, email: string): Promise<void> {
  if (!(await isInvitedUser(db, email))) return;
  throw new Error(
    `${email} was created by an invitation (POST /api/workspaces/current/members), so whoever invited them held ` +
      'their first token; an operator reads every workspace through the Temporal UI codec. Check who holds that ' +
      'account, then run again with --force to make it an operator anyway',
  );
}

/** `assay token create`: makes the user a member with `role` (`--operator`: also an operator); prints a token once. */
export async function tokenCreateCommand(options: TokenCreateOptions): Promise<void> {
  const role = options.role ?? 'builder';
  if (!(ROLES as readonly string[]).includes(role)) throw new Error(`--role must be one of ${ROLES.join(', ')}`);
  const days = options.expiresInDays;
  const config = loadConfig();
  const problem = tokenLifetimeProblem(days, config.TOKEN_MAX_DAYS);
  if (problem) throw new Error(`--expires-in-days: ${problem}`);
  const db = database(config);
  try {
    if (options.operator && !options.force) await refuseInvitedOperator(db, options.email);
    const workspaceId =
      options.workspace ?? (await findFirstWorkspace(db))?.id ?? (await createWorkspace(db, 'default')).id;
    const user = await ensureUser(db, options.email, options.name ?? options.email);
    await upsertMembership(db, workspaceId, user.id, role);
    if (options.operator) await grantOperator(db, user.id);
    const expiresAt = personalTokenExpiry(days, config.TOKEN_MAX_DAYS, null, Date.now());
    const { id, token } = await issueToken(db, {
      userId: user.id,
      workspaceId,
      name: options.name ?? 'cli',
      expiresAt,
    });
    const operator = await isOperator(db, user.id);
    const printed = { id, token, workspace_id: workspaceId, role, operator, expires_at: expiresAt };
    process.stdout.write(`${JSON.stringify(printed)}\n`);
  } finally {
    await db.destroy();
  }
}

/** `assay token revoke`: revokes a token by id. */
export async function tokenRevokeCommand(tokenId: string, options: { email: string }): Promise<void> {
  const db = database();
  try {
    const user = await ensureUser(db, options.email, options.email);
    if (!(await revokeApiToken(db, user.id, tokenId))) throw new Error('no such active token for that user');
    process.stdout.write('revoked\n');
  } finally {
    await db.destroy();
  }
}

/** `assay token list`: a user's tokens, newest first, one page as JSON (`next_cursor` for the next); no secrets. */
export async function tokenListCommand(options: { email: string; limit?: string; cursor?: string }): Promise<void> {
  const limit = options.limit === undefined ? LIMITS.pageDefault : Number(options.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > LIMITS.pageMax)
    throw new Error(`--limit must be an integer from 1 to ${LIMITS.pageMax}`);
  const db = database();
  try {
    const user = await findUserByEmail(db, options.email);
    if (!user) throw new Error(`no user with e-mail ${options.email}`);
    const page = await listUserApiTokens(db, user.id, { limit, cursor: options.cursor }).catch((error: unknown) => {
      throw error instanceof InvalidCursorError ? new Error('--cursor is not a cursor of this list') : error;
    });
    const data = page.items.map((t) => ({
      id: t.id,
      name: t.name,
      prefix: t.prefix,
      workspace_id: t.default_workspace_id,
      role: t.role,
      created_at: t.created_at.toISOString(),
      expires_at: t.expires_at?.toISOString() ?? null,
      revoked_at: t.revoked_at?.toISOString() ?? null,
    }));
    process.stdout.write(`${JSON.stringify({ data, next_cursor: page.nextCursor })}\n`);
  } finally {
    await db.destroy();
  }
}
