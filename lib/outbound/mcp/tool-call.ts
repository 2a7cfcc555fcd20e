import type { Db } from '../../../db/database';
import { findServerTools } from '../../../db/mcp-tool.repository';
import { limitMessage } from '../../../domain/limit-checks';
import { LIMITS } from '../../../domain/limits';
import type { EgressGuard } from '../egress/egress-guard';
import type { OauthClientUrls } from '../../mcp/oauth-vault';
import type { CredentialVault } from '../../vault/credential-vault';
import { describeMcpFailure, scrubbedJson, scrubSecrets } from './mcp-failure';
import { withMcpSession } from './mcp-session';
import { toolResultProblem } from './output-schema';
import { preflightRefusal } from './preflight';
import { resolveServerTarget, type ResolvedServer } from './server-target';

/** A tool call may run long (the handshake keeps its own shorter limit). */
export const TOOL_CALL_TIMEOUT_MS = 60_000;

/** One `tools/call` on a workspace's server. */
export interface ServerToolCall {
  db: Db;
  vault: CredentialVault;
  guard: EgressGuard;
  /** Assay as an OAuth client (OAuth servers: its redirect URL and metadata document). */
  oauthClient: OauthClientUrls;
  workspaceId: string;
  serverId: string;
  toolName: string;
  args: Record<string, unknown>;
  /** Aborts the call (the activity was cancelled or timed out). */
  signal?: AbortSignal;
}

/** The outcome: the tool's output (secret-free) or why it failed; never throws for a failed call. */
export interface ServerToolOutcome {
  status: 'completed' | 'failed';
  output?: unknown;
  error?: string;
}

/** Resolves the server's target, checks it with the egress guard, handshakes and calls the tool once. */
export async function callServerTool(call: ServerToolCall): Promise<ServerToolOutcome> {
  let resolved: ResolvedServer | undefined;
  try {
    resolved = await resolveServerTarget(call.db, call.vault, call.workspaceId, call.serverId, {
      guard: call.guard,
      oauthClient: call.oauthClient,
    });
    const refusal = await preflightRefusal(resolved.target, call.guard);
    if (refusal) return { status: 'failed', error: refusal };
    // The result is checked against the tool's stored (synced) output schema, not one the server announces now.
    const [stored] = await findServerTools(call.db, resolved.server.id, [call.toolName]);
    const result = await withMcpSession(resolved.target, call.guard, (session) =>
      session.client.callTool({ name: call.toolName, arguments: call.args }, undefined, {
        timeout: TOOL_CALL_TIMEOUT_MS,
        signal: call.signal,
      }),
    );
    // A tool may echo what it was given (get-env prints its environment): secret values never reach Postgres.
    const answer = {
      content: result.content,
      structured_content: result.structuredContent ?? null,
      is_error: result.isError === true,
    };
    const raw = JSON.stringify(answer);
    // The result is stored with the conversation or flow run and sent back to the model: too large, it is refused.
    const bytes = Buffer.byteLength(raw, 'utf8');
    if (bytes > LIMITS.toolResultBytes)
      return {
        status: 'failed',
        error: `tool ${call.toolName} returned ${bytes} bytes: ${limitMessage('toolResultBytes', 'bytes')}`,
      };
    const output = JSON.parse(scrubbedJson(answer, resolved.secretValues).json) as unknown;
    if (result.isError === true) return { status: 'failed', output, error: `tool ${call.toolName} returned an error` };
    const mismatch = toolResultProblem(stored?.output_schema, {
      structuredContent: result.structuredContent,
      isError: result.isError,
    });
    if (mismatch)
      return {
        status: 'failed',
        output,
        error: scrubSecrets(`tool ${call.toolName} ${mismatch}`, resolved.secretValues),
      };
    return { status: 'completed', output };
  } catch (error) {
    return {
      status: 'failed',
      error: describeMcpFailure(error, { timeoutMs: TOOL_CALL_TIMEOUT_MS, secrets: resolved?.secretValues ?? [] })
        .message,
    };
  }
}
