import { extractWWWAuthenticateParams } from '@modelcontextprotocol/sdk/client/auth.js';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { EgressGuard } from '../egress/egress-guard';
import { LIMITS } from '../../../domain/limits';
import { mcpCalls } from '../../metrics';
import { cappedFetch, McpResponseTooLargeError } from './capped-fetch';
import { answerElicitationsUnattended, ELICITATION_CAPABILITY } from './elicitation';
import { createMcpClient } from './mcp-client';
import { ScopeGrantedError } from './oauth/oauth-step-up';

/** Where and how to reach a server, with secrets already resolved (lives only inside an activity). */
export type McpTarget =
  | {
      transport: 'http';
      url: string;
      headers: Record<string, string>;
      /** OAuth servers: new headers after the server rejected these with a 401 (one refresh, then one retry). */
      reauthorize?: (rejected: Record<string, string>) => Promise<Record<string, string>>;
      /**
       * OAuth servers: answers the server's 403 `insufficient_scope` asking for `scope` (`""` when it names none) to
       * the bearer token `presented`, and gives the error the request fails with: `StepUpRequiredError` (a person
       * must authorize), {@link ScopeGrantedError} (a client-credentials token with the scope: one more try) or the
       * reason no token answers it.
       */
      onInsufficientScope?: (scope: string, presented: string | undefined) => Promise<Error>;
    }
  | { transport: 'stdio_curated'; command: string[]; env: Record<string, string> };

/** An initialised MCP client; close() ends the HTTP session or stops the child process. */
export interface McpSession {
  client: Client;
  /** The child's stderr so far (stdio only), bounded; callers scrub secrets before showing it. */
  stderr(): string;
  /** The response that passed the byte limit, if one did (an SSE answer cut short otherwise surfaces as a timeout). */
  overflow(): Error | undefined;
  close(): Promise<void>;
}

/** A failure while talking to a server, with the child's stderr (stdio) kept for the error message. */
export class McpSessionError extends Error {
  constructor(
    cause: unknown,
    readonly stderr: string,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'McpSessionError';
  }
}

/** How long one MCP request (initialize, tools/list page, tools/call) may take over HTTP. */
export const MCP_HTTP_TIMEOUT_MS = 5000;
/** Stdio servers start a process first (npx or uvx may install a package), so they get longer. */
export const MCP_STDIO_TIMEOUT_MS = 60_000;
const STDERR_LIMIT = 8192;

/**
 * A dropped SSE stream is resumed with `Last-Event-ID` (after the server's `retry` when it sent one, else this
 * backoff); a request whose stream cannot be resumed ends at its own timeout.
 */
const SSE_RECONNECTION = {
  initialReconnectionDelay: 500,
  maxReconnectionDelay: 5000,
  reconnectionDelayGrowFactor: 2,
  maxRetries: 3,
};

/** The request timeout that applies to a target. */
export const requestTimeoutMs = (target: McpTarget): number =>
  target.transport === 'http' ? MCP_HTTP_TIMEOUT_MS : MCP_STDIO_TIMEOUT_MS;

function createTransport(
  target: McpTarget,
  fetch: FetchLike,
  onStderr: (chunk: string) => void,
): StreamableHTTPClientTransport | StdioClientTransport {
  if (target.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(target.url), {
      fetch,
      requestInit: { headers: target.headers },
      reconnectionOptions: SSE_RECONNECTION,
    });
  }
  const [command, ...args] = target.command;
  // No shell; the SDK adds only its minimal inherited set (PATH, HOME, USER, LOGNAME, SHELL, TERM) to `env`.
  // The SDK's own line buffer stops at this size (it reports the overflow and closes the transport).
  const transport = new StdioClientTransport({
    command,
    args,
    env: target.env,
    stderr: 'pipe',
    maxBufferSize: LIMITS.mcpResponseBytes,
  });
  transport.stderr?.on('data', (chunk: Buffer) => onStderr(chunk.toString('utf8')));
  return transport;
}

// An OAuth server's 403 `insufficient_scope` is reported (the scope it asks for), then the request fails with the error
// the report answers, one every caller recognises (never a plain HTTP 403).
function observeScope(target: McpTarget, fetch: FetchLike): FetchLike {
  if (target.transport !== 'http' || !target.onInsufficientScope) return fetch;
  const report = target.onInsufficientScope;
  return async (url, init) => {
    const response = await fetch(url, init);
    if (response.status !== 403) return response;
    const { scope, error } = extractWWWAuthenticateParams(response);
    if (error !== 'insufficient_scope') return response;
    await response.body?.cancel().catch(() => undefined);
    // The server's own text: bounded before it reaches the vault record, the server row and messages.
    const asked = (scope ?? '').slice(0, LIMITS.mcpOauthScopesChars);
    const presented = new Headers(init?.headers).get('authorization')?.replace(/^Bearer /, '');
    throw await report(asked, presented);
  };
}

/**
 * Connects and runs the MCP handshake (`initialize`, then `notifications/initialized`). Without `capabilities` (flows,
 * runs, syncs, health checks) the client declares elicitation and answers it unattended; the gateway passes its
 * downstream client's own capabilities instead, to forward sampling and elicitation to it.
 */
export async function openMcpSession(
  target: McpTarget,
  guard: EgressGuard,
  capabilities?: ClientCapabilities,
): Promise<McpSession> {
  let stderr = '';
  // Every request goes through the egress guard (connect-time address checks, no redirects) and the byte cap.
  const capped = cappedFetch(guard.fetch as unknown as FetchLike, { onOverflow: () => void transport.close() });
  const transport = createTransport(target, observeScope(target, capped.fetch), (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  // The SDK offers the latest protocol (2025-11-25) and accepts what the server answers among its supported ones.
  const client = createMcpClient(capabilities ?? { elicitation: ELICITATION_CAPABILITY });
  if (!capabilities) answerElicitationsUnattended(client);
  let stdioOverflow: McpResponseTooLargeError | undefined;
  // The SDK words a stdio line over its buffer size this way; pending requests then fail as "connection closed".
  client.onerror = (error) => {
    if (/^ReadBuffer exceeded maximum size/.test(error.message))
      stdioOverflow ??= new McpResponseTooLargeError(`more than ${LIMITS.mcpResponseBytes}`);
  };
  const overflow = (): Error | undefined => capped.overflow() ?? stdioOverflow;
  const close = async (): Promise<void> => {
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId) {
      await transport.terminateSession().catch(() => undefined);
    }
    await client.close().catch(() => undefined);
  };
  try {
    await client.connect(transport, { timeout: requestTimeoutMs(target) });
  } catch (error) {
    await close();
    throw new McpSessionError(overflow() ?? error, stderr);
  }
  return { client, stderr: () => stderr, overflow, close };
}

// A 401 (the token expired or was revoked early), or a step-up answered with a new token.
const newTokenHelps = (error: unknown): boolean => {
  for (let current = error, depth = 0; current instanceof Error && depth < 6; depth++) {
    if (current instanceof StreamableHTTPError && current.code === 401) return true;
    if (current instanceof ScopeGrantedError) return true;
    current = current.cause;
  }
  return false;
};

/**
 * Opens a session, runs `use`, and always closes it (the stdio child is stopped after the call); counts the call. An
 * OAuth server that answers 401 (its token expired or was revoked early), or a client-credentials server whose
 * step-up got a token with the asked scope, gets one more try with the new token.
 */
export async function withMcpSession<T>(
  target: McpTarget,
  guard: EgressGuard,
  use: (session: McpSession) => Promise<T>,
): Promise<T> {
  try {
    return await sessionOnce(target, guard, use);
  } catch (error) {
    if (target.transport !== 'http' || !target.reauthorize || !newTokenHelps(error)) throw error;
    const headers = await target.reauthorize(target.headers);
    return sessionOnce({ ...target, headers, reauthorize: undefined }, guard, use);
  }
}

async function sessionOnce<T>(
  target: McpTarget,
  guard: EgressGuard,
  use: (session: McpSession) => Promise<T>,
): Promise<T> {
  const session = await openMcpSession(target, guard).catch((error: unknown) => {
    mcpCalls.inc({ outcome: 'error' });
    throw error;
  });
  try {
    const result = await use(session);
    mcpCalls.inc({ outcome: 'ok' });
    return result;
  } catch (error) {
    mcpCalls.inc({ outcome: 'error' });
    throw new McpSessionError(session.overflow() ?? error, session.stderr());
  } finally {
    await session.close();
  }
}
