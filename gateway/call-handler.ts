import crypto from 'node:crypto';
import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import { ErrorCode, McpError, type CallToolRequest, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../lib/logger';
import { McpProtocolError } from '../lib/outbound/mcp/list-tools';
import { scrubSecrets } from '../lib/outbound/mcp/mcp-failure';
import { gatewayCallDuration, gatewayCalls } from '../lib/metrics';
import type { AuditQueue } from './audit-queue';
import type { CallRecorder, GatewaySessionOwner } from './call-recorder';
import { liveDefinitionMoved } from './live-definitions';
import type { DownstreamExtra, DownstreamRelay } from './forward/relay';
import type { AgentToolCatalog } from './tool-catalog';
import { checkArguments, forwardCall, refuse, type CallOutcome } from './tool-forward';
import type { Upstreams } from './upstreams';

/** What a gateway session's `tools/call` handler works with. */
export interface CallContext {
  logger: Logger;
  tracer: Tracer | undefined;
  owner: GatewaySessionOwner & { actorType: 'user' | 'service_token'; actorId: string };
  catalog(): Promise<AgentToolCatalog>;
  upstreams: Upstreams;
  recorder: CallRecorder;
  /** The gateway's audit entries, written in batches after the answers. */
  audit: AuditQueue;
  /** Carries the call's cancellation, progress and the server's own requests to the client (gateway/forward/). */
  relay: DownstreamRelay;
}

const AUDIT_STATUS: Record<CallOutcome, number> = { ok: 200, tool_error: 200, error: 502, refused: 403 };

/** One audit entry per call, queued after the answer (a failure to write is logged, never the call's failure). */
function audit(ctx: CallContext, serverId: string | null, tool: string, outcome: CallOutcome): void {
  const { owner } = ctx;
  const entry = {
    workspace_id: owner.workspaceId,
    actor_type: owner.actorType,
    actor_id: owner.actorId,
    action: 'gateway.tool_call',
    resource_type: 'mcp-tools',
    resource_id: `${serverId ?? owner.agentId}:${tool}`.slice(0, 256),
    outcome:
      outcome === 'ok' ? ('success' as const) : outcome === 'refused' ? ('denied' as const) : ('failed' as const),
    status: AUDIT_STATUS[outcome],
    request_id: `${owner.mcpSessionId}:${crypto.randomUUID()}`,
  };
  ctx.audit.add(entry);
}

/**
 * Answers a `tools/call`: finds the exposed tool (unknown or outside the link's allowlist: a JSON-RPC error saying so),
 * bounds the arguments, forwards the call, and counts it (metrics, audit entry, span, the session's recording).
 */
export async function handleToolCall(
  ctx: CallContext,
  request: CallToolRequest,
  extra: DownstreamExtra,
): Promise<CallToolResult> {
  const name = request.params.name;
  const exposed = (await ctx.catalog()).tools.get(name);
  if (!exposed) {
    audit(ctx, null, name, 'refused');
    throw refuse(`unknown tool ${name}: this gateway names each tool <server>__<tool> (or the link's tool_prefix)`);
  }
  const labels = { server: exposed.serverName, tool: exposed.tool.name };
  if (!exposed.allowed) {
    gatewayCalls.inc({ ...labels, outcome: 'refused' });
    audit(ctx, exposed.serverId, exposed.tool.name, 'refused');
    throw refuse(`tool ${name} is not in the allowlist of this agent's link to server ${exposed.serverName}`);
  }
  const run = async (): Promise<CallToolResult> => {
    const startedAt = new Date();
    const started = performance.now();
    let outcome: CallOutcome = 'error';
    try {
      const argumentBytes = checkArguments(name, request.params.arguments);
      const upstream = await ctx.upstreams.get(exposed.serverId).catch((error: unknown) => {
        throw refuse(
          `${name}: server ${exposed.serverName} is unavailable: ${(error as Error).message}`,
          ErrorCode.InternalError,
        );
      });
      // Fails closed: a definition that cannot be checked is not called. A listing past a bound says which.
      const moved = await liveDefinitionMoved(exposed, upstream).catch((error: unknown) => error);
      if (typeof moved !== 'boolean') {
        const reason = upstream.session.overflow() ?? moved;
        throw refuse(
          `${name}: server ${exposed.serverName} did not list its tools to check the definition` +
            (reason instanceof McpProtocolError ? `: ${scrubSecrets(reason.message, upstream.secretValues)}` : ''),
          ErrorCode.InternalError,
        );
      }
      if (moved)
        throw refuse(`${name}: its definition changed upstream since it was approved (hidden until approved again)`);
      const { result, resultBytes } = await forwardCall(ctx.relay, extra, upstream, exposed, request.params.arguments);
      outcome = result.isError === true ? 'tool_error' : 'ok';
      const latencyMs = performance.now() - started;
      ctx.recorder.call({
        serverId: exposed.serverId,
        serverName: exposed.serverName,
        tool: exposed.tool.name,
        exposedName: name,
        arguments: request.params.arguments ?? {},
        result,
        isError: result.isError === true,
        latencyMs,
        argumentBytes,
        resultBytes,
        startedAt,
      });
      return result;
    } catch (error) {
      if (error instanceof McpError && error.code === ErrorCode.InvalidParams) outcome = 'refused';
      throw error;
    } finally {
      gatewayCalls.inc({ ...labels, outcome });
      gatewayCallDuration.observe(labels, (performance.now() - started) / 1000);
      audit(ctx, exposed.serverId, exposed.tool.name, outcome);
    }
  };
  if (!ctx.tracer) return run();
  const attributes = {
    'mcp.server': exposed.serverName,
    'mcp.tool': exposed.tool.name,
    'assay.agent': ctx.owner.agentId,
  };
  return ctx.tracer.startActiveSpan('gateway tools/call', { kind: SpanKind.SERVER, attributes }, async (span) => {
    try {
      const result = await run();
      if (result.isError === true) span.setStatus({ code: SpanStatusCode.ERROR, message: 'tool returned an error' });
      return result;
    } catch (error) {
      span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message });
      throw error;
    } finally {
      span.end();
    }
  });
}
