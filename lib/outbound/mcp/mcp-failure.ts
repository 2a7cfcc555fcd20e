import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { EgressBlockedError, EgressTimeoutError } from '../egress/egress-errors';
import { McpProtocolError } from './list-tools';
import { McpSessionError } from './mcp-session';
import { ScopeGrantedError, StepUpRefusedError } from './oauth/oauth-step-up';
import { AuthorizationRequiredError } from './oauth/vault-oauth-provider';
import { McpTargetError } from './server-target';

/** A caller-facing description of a failed MCP exchange, and whether trying again could help. */
export interface McpFailure {
  message: string;
  retryable: boolean;
  /**
   * The server is already `authorization_required` (a step-up, with the asked scope, or no token to be had): only a
   * person authorizing it helps, and nobody may mark it `error`.
   */
  authorizationRequired?: true;
}

/** An McpError's own message: the SDK puts `MCP error <code>: ` before it (and again on each new McpError made of it). */
export const mcpErrorOwnMessage = (error: McpError): string => error.message.replace(/^MCP error -?\d+: /, '');

/** What the message may mention: the timeout applied and the secret values to scrub. */
export interface FailureContext {
  timeoutMs: number;
  secrets: readonly string[];
  command?: string;
}

const NETWORK_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset by the server',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  UND_ERR_SOCKET: 'connection closed by the server',
  UND_ERR_CLOSED: 'connection closed by the server',
  UND_ERR_HEADERS_TIMEOUT: 'the server sent no response headers in time',
  CERT_HAS_EXPIRED: 'TLS certificate expired',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'TLS certificate is self-signed',
  ERR_TLS_CERT_ALTNAME_INVALID: 'TLS certificate does not match the host name',
};

function* causes(error: unknown): Generator<unknown> {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 6; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** Replaces every secret value (at least 4 characters) in a text. */
export function scrubSecrets(text: string, secrets: readonly string[]): string {
  return secrets.filter((s) => s.length >= 4).reduce((out, secret) => out.split(secret).join('[secret]'), text);
}

// A secret as it appears inside a JSON string: a value holding it always holds this in its JSON text.
const inJson = (secret: string): string => JSON.stringify(secret).slice(1, -1);

function scrubKeys(object: object, secrets: readonly string[]): object {
  const keys = Object.keys(object);
  if (keys.every((key) => scrubSecrets(key, secrets) === key)) return object;
  return Object.fromEntries(keys.map((key) => [scrubSecrets(key, secrets), (object as Record<string, unknown>)[key]]));
}

/**
 * The JSON text of `value` with every secret value replaced in its strings and keys (as a reader of the JSON would
 * decode them, escapes and all), and whether one was; numbers and literals stay as they are.
 */
export function scrubbedJson(value: unknown, secrets: readonly string[]): { json: string; scrubbed: boolean } {
  const json = JSON.stringify(value) ?? 'null';
  const present = secrets.filter((secret) => json.includes(inJson(secret)));
  if (present.length === 0) return { json, scrubbed: false };
  const replaced = JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'string') return scrubSecrets(v, present);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? scrubKeys(v, present) : v;
  });
  return { json: replaced, scrubbed: replaced !== json };
}

function httpStatusMessage(status: number): McpFailure {
  if (status === 401) return { message: 'HTTP 401: the server rejected the credentials', retryable: false };
  if (status === 403) return { message: 'HTTP 403: access denied by the server', retryable: false };
  if (status >= 300 && status < 400) return { message: `redirect not followed (HTTP ${status})`, retryable: false };
  if (status === 404 || status === 405)
    return { message: `HTTP ${status}: not an MCP server (no MCP endpoint at this URL)`, retryable: false };
  if (status === 429) return { message: 'HTTP 429: rate limited by the server', retryable: true };
  if (status >= 500) return { message: `HTTP ${status}: server error`, retryable: true };
  return { message: `HTTP ${status}: the server refused the MCP request`, retryable: false };
}

function describeOne(error: unknown, context: FailureContext): McpFailure | undefined {
  if (
    error instanceof AuthorizationRequiredError ||
    error instanceof EgressBlockedError ||
    error instanceof McpProtocolError ||
    error instanceof McpTargetError ||
    error instanceof ScopeGrantedError ||
    error instanceof StepUpRefusedError
  )
    return { message: error.message, retryable: false };
  if (error instanceof EgressTimeoutError) return { message: error.message, retryable: true };
  if (error instanceof McpError) {
    if (error.code === ErrorCode.RequestTimeout)
      return { message: `timeout after ${context.timeoutMs} ms`, retryable: true };
    if (error.code === ErrorCode.ConnectionClosed)
      return { message: 'the server closed the connection', retryable: true };
    return { message: `MCP error ${error.code}: ${mcpErrorOwnMessage(error)}`, retryable: false };
  }
  if (error instanceof StreamableHTTPError) {
    if (error.code === -1) {
      const type = /Unexpected content type: (.*)$/.exec(error.message)?.[1] ?? 'unknown';
      return { message: `not an MCP server: unexpected content type ${type.slice(0, 80)}`, retryable: false };
    }
    if (typeof error.code === 'number') return httpStatusMessage(error.code);
  }
  if (error instanceof Error) {
    const version = /protocol version is not supported: (.*)$/.exec(error.message);
    if (version) return { message: `unsupported protocol version ${version[1].slice(0, 40)}`, retryable: false };
    if (error.name === 'ZodError' || error instanceof SyntaxError)
      return { message: 'not an MCP server: the response is not JSON-RPC', retryable: false };
  }
  const errno = error as { code?: unknown; hostname?: unknown };
  if (errno.code === 'ENOTFOUND' || errno.code === 'EAI_AGAIN') {
    return {
      message: `DNS failure: ${typeof errno.hostname === 'string' ? errno.hostname : 'the host'} could not be resolved`,
      retryable: errno.code === 'EAI_AGAIN',
    };
  }
  if (errno.code === 'ENOENT' && context.command)
    return { message: `command not found: ${context.command}`, retryable: false };
  if (typeof errno.code === 'string' && NETWORK_CODES[errno.code])
    return { message: NETWORK_CODES[errno.code], retryable: true };
  return undefined;
}

/** Describes why an MCP exchange failed: precise (blocked, DNS, timeout, HTTP status, not MCP, protocol) and secret-free. */
export function describeMcpFailure(error: unknown, context: FailureContext): McpFailure {
  let described: McpFailure | undefined;
  for (const candidate of causes(error)) {
    described = describeOne(candidate, context);
    if (described) break;
  }
  described ??= {
    message: `unexpected error: ${(error as Error)?.message ?? String(error)}`.slice(0, 300),
    retryable: false,
  };
  if ([...causes(error)].some((cause) => cause instanceof AuthorizationRequiredError))
    described = { ...described, retryable: false, authorizationRequired: true };
  const stderr = error instanceof McpSessionError ? error.stderr.trim() : '';
  const withStderr = stderr ? `${described.message} (stderr: ${stderr.slice(-500)})` : described.message;
  return { ...described, message: scrubSecrets(withStderr, context.secrets) };
}
