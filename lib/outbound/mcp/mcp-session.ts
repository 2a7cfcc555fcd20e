import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { ClientCapabilities } from '@modelcontextprotocol/sdk/types.js';
import type { EgressGuard } from '../egress/egress-guard';
import { LIMITS } from '../../../domain/limits';
import { mcpCalls } from '../../metrics';
import { cappedFetch, McpResponseTooLargeError } from './capped-fetch';

/** Where and how to reach a server, with secrets already resolved (lives only inside an activity). */
export type McpTarget =
  | { transport: 'http'; url: string; headers: Record<string, string> }
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

/** The request timeout that applies to a target. */
export const requestTimeoutMs = (target: McpTarget): number =>
  target.transport === 'http' ? MCP_HTTP_TIMEOUT_MS : MCP_STDIO_TIMEOUT_MS;

function createTransport(
  target: McpTarget,
  fetch: FetchLike,
  onStderr: (chunk: string) => void,
): StreamableHTTPClientTransport | StdioClientTransport {
  if (target.transport === 'http') {
    return new StreamableHTTPClientTransport(new URL(target.url), { fetch, requestInit: { headers: target.headers } });
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

/**
 * Connects and runs the MCP handshake (`initialize`, then `notifications/initialized`); `capabilities` are the
 * client's (the gateway declares its downstream client's sampling and elicitation, to forward them).
 */
export async function openMcpSession(
  target: McpTarget,
  guard: EgressGuard,
  capabilities: ClientCapabilities = {},
): Promise<McpSession> {
  let stderr = '';
  // Every request goes through the egress guard (connect-time address checks, no redirects) and the byte cap.
  const capped = cappedFetch(guard.fetch as unknown as FetchLike, { onOverflow: () => void transport.close() });
  const transport = createTransport(target, capped.fetch, (chunk) => {
    stderr = (stderr + chunk).slice(-STDERR_LIMIT);
  });
  const client = new Client({ name: 'assay', version: '0.1.0' }, { capabilities });
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

/** Opens a session, runs `use`, and always closes it (the stdio child is stopped after the call); counts the call. */
export async function withMcpSession<T>(
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
