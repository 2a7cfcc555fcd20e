import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { markStepUpRefused, markTokenReplaced } from '../../../../db/mcp-oauth.repository';
import type { McpServer } from '../../../../db/tables/mcp.table';
import { LIMITS } from '../../../../domain/limits';
import { readOauthRecord, writeOauthRecord, type OauthVaultRecord } from '../../../mcp/oauth-vault';
import { describeOauthError, oauthFetch, withOauthLock, type OauthDeps } from './oauth-headers';
import { joinScopes, ScopeGrantedError, STEP_UP_AUTHORIZATIONS, StepUpRefusedError } from './oauth-step-up';
import { VaultOAuthProvider } from './vault-oauth-provider';

// What token requests ask for, and what the current token has (the token response's scope, else what was asked).
const requestedScope = (record: OauthVaultRecord, server: McpServer): string | undefined =>
  record.scope ?? server.oauth_scopes ?? undefined;
const tokenScope = (record: OauthVaultRecord, server: McpServer): string | undefined =>
  (record.tokens?.scope as string | undefined) ?? requestedScope(record, server);

// Why no token can answer the step-up, or undefined when one is worth asking for.
function hopeless(record: OauthVaultRecord, server: McpServer, asked: string, scope: string): string | undefined {
  const prefix = `the server asks for scope "${asked}" (insufficient_scope)`;
  const has = tokenScope(record, server);
  if (joinScopes(has, asked) === joinScopes(has))
    return `${prefix} from a token granted it; Assay does not ask again (check the scopes the server requires)`;
  if (scope.length > LIMITS.mcpOauthScopesChars)
    return `${prefix}: with the scopes granted it is over ${LIMITS.mcpOauthScopesChars} characters; Assay does not ask`;
  if (record.step_up?.scope === scope && record.step_up.attempts >= STEP_UP_AUTHORIZATIONS)
    return `${prefix} after ${record.step_up.attempts} tokens asked with it; Assay does not ask again`;
  return undefined;
}

// Under the server's lock: a new client-credentials token asking for the granted scopes and the asked one. Answers
// why the step-up failed, or undefined when the new token is stored (with the scope the next requests ask for).
async function requestScope(
  deps: OauthDeps,
  server: McpServer,
  asked: string,
  presented: string | undefined,
): Promise<string | undefined> {
  const record = await readOauthRecord(deps.vault, server);
  // Another caller got a new token while this request was under way: the request is tried with that one.
  if (record.tokens?.access_token !== presented) return undefined;
  const scope = joinScopes(requestedScope(record, server), record.tokens?.scope as string | undefined, asked);
  const reason = hopeless(record, server, asked, scope);
  if (reason) return reason;
  const attempts = record.step_up?.scope === scope ? record.step_up.attempts : 0;
  const counted = { ...record, step_up: { scope, attempts: attempts + 1 } };
  const provider = new VaultOAuthProvider(deps.vault, server, { ...counted, scope }, deps.oauthClient, 'use');
  const refusal = await auth(provider, { serverUrl: server.config.url ?? '', fetchFn: oauthFetch(deps.guard) }).then(
    () => (lacks(provider.record.tokens?.scope, asked) ? 'granted a token without it' : undefined),
    (error: unknown) => `refused a token with it: ${describeOauthError(error)}`,
  );
  if (refusal === undefined) return undefined;
  // The scope asked for before stays: a refused scope is not asked for again by the next token request.
  await writeOauthRecord(deps.vault, server, { ...provider.record, scope: record.scope });
  return `the server asks for scope "${asked}" (insufficient_scope) and the authorization server ${refusal}`;
}

// A token response that names its scope (RFC 6749 §5.1) without every scope asked for.
const lacks = (granted: unknown, asked: string): boolean =>
  typeof granted === 'string' && joinScopes(granted, asked) !== joinScopes(granted);

/**
 * A client-credentials server answered 403 `insufficient_scope` asking for `asked` to the token `presented`: Assay
 * asks the token endpoint for a new token with the scopes granted so far and the asked one (at most
 * {@link STEP_UP_AUTHORIZATIONS} tokens per scope), which the next requests and refreshes ask for too. Answers
 * {@link ScopeGrantedError} (the request is tried once more), or, when no token answers it (the scope refused, or
 * still insufficient), marks the server `error` showing the scope and answers {@link StepUpRefusedError}.
 */
export async function stepUpClientCredentials(
  deps: OauthDeps,
  server: McpServer,
  asked: string,
  presented: string | undefined,
): Promise<Error> {
  const refused = await withOauthLock(deps.db, server.id, () => requestScope(deps, server, asked, presented));
  if (refused === undefined) {
    await markTokenReplaced(deps.db, server.id);
    return new ScopeGrantedError(asked);
  }
  await markStepUpRefused(deps.db, server.id, refused, asked);
  return new StepUpRefusedError(refused);
}
