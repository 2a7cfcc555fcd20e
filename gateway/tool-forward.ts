import type { RequestOptions } from '@modelcontextprotocol/sdk/shared/protocol.js';
import { CallToolResultSchema, ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { LIMITS } from '../domain/limits';
import { describeMcpFailure } from '../lib/outbound/mcp/mcp-failure';
import { TOOL_CALL_TIMEOUT_MS } from '../lib/outbound/mcp/tool-call';
import type { DownstreamExtra, DownstreamRelay } from './forward/relay';
import { OversizeMessage } from './forward/relayable';
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

/** What a call whose result is over `gatewayResultBytes` answers: a tool error naming the limit. */
const oversizeResult = (exposedName: string, bytes: number): CallToolResult => ({
  content: [
    {
      type: 'text',
      text: `${exposedName} returned ${bytes} bytes: over ${LIMITS.gatewayResultBytes} (limit gatewayResultBytes)`,
    },
  ],
  isError: true,
});

/** Calls the upstream tool with the call's timeout and the client's cancellation (`options`); a failure is described. */
async function callUpstream(
  upstream: Upstream,
  exposed: ExposedTool,
  args: Record<string, unknown> | undefined,
  options: RequestOptions,
): Promise<CallToolResult> {
  const timeout = callTimeoutMs(exposed);
  try {
    return (await upstream.client.callTool({ name: exposed.tool.name, arguments: args }, CallToolResultSchema, {
      ...options,
      timeout,
    })) as CallToolResult;
  } catch (error) {
    if (
      error instanceof McpError &&
      error.code !== ErrorCode.RequestTimeout &&
      error.code !== ErrorCode.ConnectionClosed
    )
      throw error;
    const failure = describeMcpFailure(upstream.session.overflow() ?? error, {
      timeoutMs: timeout,
      secrets: upstream.secretValues,
    });
    throw refuse(`${exposed.exposedName}: ${failure.message}`, ErrorCode.InternalError);
  }
}

/**
 * Forwards a call through the session's relay, which scrubs the server's secret values from its result and failure
 * (gateway/forward/relayable.ts); a result over `gatewayResultBytes` is answered as a tool error.
 */
export async function forwardCall(
  relay: DownstreamRelay,
  extra: DownstreamExtra,
  upstream: Upstream,
  exposed: ExposedTool,
  args: Record<string, unknown> | undefined,
): Promise<ForwardedCall> {
  const source = { serverId: exposed.serverId, serverName: exposed.serverName, secretValues: upstream.secretValues };
  try {
    const { value, bytes } = await relay.forward(source, extra, (options) =>
      callUpstream(upstream, exposed, args, options),
    );
    return { result: value, resultBytes: bytes };
  } catch (error) {
    if (!(error instanceof OversizeMessage)) throw error;
    return { result: oversizeResult(exposed.exposedName, error.bytes), resultBytes: error.bytes };
  }
}
