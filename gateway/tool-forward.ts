import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../domain/limits';
import { describeMcpFailure, scrubSecrets } from '../lib/outbound/mcp/mcp-failure';
import { TOOL_CALL_TIMEOUT_MS } from '../lib/outbound/mcp/tool-call';
import type { ExposedTool } from './tool-catalog';
import type { Upstream } from './upstreams';

/** How one forwarded call ended, for the metrics, audit entry, span and recording. */
export type CallOutcome = 'ok' | 'tool_error' | 'error' | 'refused';

/** A forwarded call's answer and what the gateway records about it. */
export interface ForwardedCall {
  result: CallToolResult;
  resultBytes: number;
}

/** The timeout of a call to `exposed`: the link's `timeout_ms` override, else the worker's tool-call timeout. */
export const callTimeoutMs = (exposed: ExposedTool): number =>
  Math.min(exposed.override.timeout_ms ?? TOOL_CALL_TIMEOUT_MS, LIMITS.gatewayCallTimeoutMaxMs);

/** A JSON-RPC error the client gets for a call that cannot be made; its message names the tool and the reason. */
export const refuse = (message: string, code = ErrorCode.InvalidParams): McpError => new McpError(code, message);

/** Refuses arguments over `gatewayArgumentBytes`; answers their size. */
export function checkArguments(exposedName: string, args: unknown): number {
  const bytes = Buffer.byteLength(JSON.stringify(args ?? {}), 'utf8');
  if (bytes > LIMITS.gatewayArgumentBytes)
    throw refuse(
      `${exposedName}: arguments of ${bytes} bytes are over ${LIMITS.gatewayArgumentBytes} (limit gatewayArgumentBytes)`,
    );
  return bytes;
}

const toolErrorResult = (text: string): CallToolResult => ({ content: [{ type: 'text', text }], isError: true });

/**
 * Calls the upstream tool with the call's timeout and the client's cancellation. A result over `gatewayResultBytes` is
 * answered as a tool error; secret values of the server are replaced in what the client gets. An upstream failure
 * becomes a JSON-RPC error whose message carries no secret.
 */
export async function forwardCall(
  upstream: Upstream,
  exposed: ExposedTool,
  args: Record<string, unknown> | undefined,
  signal: AbortSignal,
): Promise<ForwardedCall> {
  const timeout = callTimeoutMs(exposed);
  let result: CallToolResult;
  try {
    result = (await upstream.client.callTool({ name: exposed.tool.name, arguments: args }, CallToolResultSchema, {
      timeout,
      signal,
    })) as CallToolResult;
  } catch (error) {
    if (
      error instanceof McpError &&
      error.code !== ErrorCode.RequestTimeout &&
      error.code !== ErrorCode.ConnectionClosed
    )
      throw new McpError(
        error.code,
        scrubSecrets(error.message.replace(/^MCP error -?\d+: /, ''), upstream.secretValues),
      );
    const failure = describeMcpFailure(upstream.session.overflow() ?? error, {
      timeoutMs: timeout,
      secrets: upstream.secretValues,
    });
    throw refuse(`${exposed.exposedName}: ${failure.message}`, ErrorCode.InternalError);
  }
  const raw = JSON.stringify(result);
  const resultBytes = Buffer.byteLength(raw, 'utf8');
  if (resultBytes > LIMITS.gatewayResultBytes)
    return {
      result: toolErrorResult(
        `${exposed.exposedName} returned ${resultBytes} bytes: over ${LIMITS.gatewayResultBytes} (limit gatewayResultBytes)`,
      ),
      resultBytes,
    };
  const scrubbed = scrubSecrets(raw, upstream.secretValues);
  return { result: scrubbed === raw ? result : (JSON.parse(scrubbed) as CallToolResult), resultBytes };
}
