import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../../domain/limits';
import { describeMcpFailure, mcpErrorOwnMessage, scrubbedJson } from '../../lib/outbound/mcp/mcp-failure';
import { MCP_HTTP_TIMEOUT_MS } from '../../lib/outbound/mcp/mcp-session';
import type { RelaySource } from './upstream';

/** A message from an upstream, as the client gets it, and its size as JSON in bytes. */
export interface Relayed<T> {
  value: T;
  bytes: number;
}

/** A message from an upstream over `gatewayResultBytes`: never relayed. */
export class OversizeMessage extends McpError {
  constructor(
    source: RelaySource,
    what: string,
    readonly bytes: number,
  ) {
    super(
      ErrorCode.InternalError,
      `${what} of ${bytes} bytes from server ${source.serverName} is over ${LIMITS.gatewayResultBytes} (limit gatewayResultBytes)`,
    );
  }
}

/**
 * What the client may get of a message from `source` (an answer, a notification, a request): every secret value of
 * the server replaced by `[secret]` in its strings and keys; over `gatewayResultBytes` (after scrubbing) an
 * `OversizeMessage` naming `what`.
 */
export function relayable<T>(source: RelaySource, value: T, what: string): Relayed<T> {
  const { json, scrubbed } = scrubbedJson(value, source.secretValues);
  const bytes = Buffer.byteLength(json, 'utf8');
  if (bytes > LIMITS.gatewayResultBytes) throw new OversizeMessage(source, what, bytes);
  return { value: scrubbed ? (JSON.parse(json) as T) : value, bytes };
}

/**
 * What the client may get of a failure while forwarding to `source`: a JSON-RPC error keeps its code, its message
 * and data pass `relayable` (one over the bound says so instead); any other failure is described, never quoted.
 */
export function relayableError(source: RelaySource, error: unknown): McpError {
  if (!(error instanceof McpError)) {
    const failure = describeMcpFailure(error, { timeoutMs: MCP_HTTP_TIMEOUT_MS, secrets: source.secretValues });
    return new McpError(ErrorCode.InternalError, `server ${source.serverName}: ${failure.message}`);
  }
  try {
    const { value } = relayable(
      source,
      { message: mcpErrorOwnMessage(error), data: error.data as unknown },
      'an error',
    );
    return new McpError(error.code, value.message, value.data);
  } catch (oversize) {
    if (!(oversize instanceof OversizeMessage)) throw oversize;
    return new McpError(error.code, mcpErrorOwnMessage(oversize));
  }
}
