import type { Db } from '../../../../db/database';
import { markAuthorizationRequired } from '../../../../db/mcp-oauth.repository';
import type { McpServer } from '../../../../db/tables/mcp.table';
import { readOauthRecord, writeOauthRecord, type OauthVaultRecord } from '../../../mcp/oauth-vault';
import type { CredentialVault } from '../../../vault/credential-vault';
import { withOauthLock } from './oauth-headers';
import { AuthorizationRequiredError, OauthRefusedError } from './vault-oauth-provider';

/**
 * Step-up authorizations for one asked scope: a server that still answers `insufficient_scope` after this many is
 * not authorized again (no loop of consent screens); a different scope starts a new count.
 */
export const STEP_UP_AUTHORIZATIONS = 2;

/**
 * A server answered 403 `insufficient_scope` (a step-up) and is in `authorization_required` asking for `scope`: only a
 * person authorizing it again helps, so no failure path retries it or marks the server `error`.
 */
export class StepUpRequiredError extends AuthorizationRequiredError {
  constructor(readonly scope: string) {
    super(`authorization required: the server asks for scope "${scope}" (insufficient_scope); authorize again`);
    this.name = 'StepUpRequiredError';
  }
}

/** A client-credentials server got a token with the scope it asked for: the request is tried once more. */
export class ScopeGrantedError extends Error {
  constructor(readonly scope: string) {
    super(`the server asked for scope "${scope}" (insufficient_scope) and Assay obtained a token with it; try again`);
    this.name = 'ScopeGrantedError';
  }
}

/** A client-credentials server asked for a scope no token answers: the server is `error`; retrying will not help. */
export class StepUpRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'StepUpRefusedError';
  }
}

/** Space-separated scope lists joined, each scope once, in order. */
export function joinScopes(...lists: Array<string | null | undefined>): string {
  return [...new Set(lists.flatMap((list) => (list ?? '').split(' ')).filter(Boolean))].join(' ');
}

/**
 * A server answered 403 `insufficient_scope`: the scope it asks for is kept (joined with the scopes granted so far)
 * for the next authorization, and the server goes to `authorization_required` saying so and showing that scope.
 * Answers the error the request fails with.
 */
export async function recordStepUp(
  deps: { db: Db; vault: CredentialVault },
  server: McpServer,
  asked: string,
): Promise<StepUpRequiredError> {
  await withOauthLock(deps.db, server.id, async () => {
    const record = await readOauthRecord(deps.vault, server);
    const granted = typeof record.tokens?.scope === 'string' ? record.tokens.scope : undefined;
    const scope = joinScopes(granted, asked);
    const attempts = record.step_up?.scope === scope ? record.step_up.attempts : 0;
    await writeOauthRecord(deps.vault, server, { ...record, step_up: { scope, attempts } });
  });
  const stepUp = new StepUpRequiredError(asked);
  await markAuthorizationRequired(deps.db, server.id, stepUp.message, stepUp.scope || null);
  return stepUp;
}

/** The scope a new authorization asks for after a step-up (counted), or undefined; refused past the limit. */
export function stepUpScope(record: OauthVaultRecord): string | undefined {
  const stepUp = record.step_up;
  if (!stepUp) return undefined;
  if (stepUp.attempts >= STEP_UP_AUTHORIZATIONS)
    throw new OauthRefusedError(
      `the server still answers insufficient_scope for "${stepUp.scope}" after ${stepUp.attempts} step-up ` +
        'authorizations; Assay does not ask again (check the scopes the server grants)',
    );
  stepUp.attempts += 1;
  return stepUp.scope;
}
