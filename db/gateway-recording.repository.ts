import { sql } from 'kysely';
import { jsonBytes } from '../domain/limit-checks';
import { LIMITS } from '../domain/limits';
import type { Db } from './database';
import type { GatewayCapture } from './tables/agent.table';
import type { RecordedToolCall } from './tables/conversation.table';

/** One call the gateway forwarded, as it reports it to the recorder. */
export interface GatewayCallRecord {
  serverId: string;
  serverName: string;
  /** The upstream tool's name. */
  tool: string;
  /** What the client called (`<server>__<tool>` or the link's prefix and the tool). */
  exposedName: string;
  /** Dropped under capture `metadata`. */
  arguments: unknown;
  result: unknown;
  isError: boolean;
  latencyMs: number;
  argumentBytes: number;
  resultBytes: number;
  startedAt: Date;
}

/** Who opened a gateway session of which agent. */
export interface GatewaySessionRef {
  workspaceId: string;
  agentId: string;
  mcpSessionId: string;
  tokenId: string | null;
}

/**
 * Opens the conversation that records one gateway session of an agent (source `gateway`), or finds the one already
 * open for it, so a retried open never makes a second. It has one turn with no user message or reply (the gateway
 * sees neither): its trajectory is the session's calls.
 */
export async function openGatewayConversation(db: Db, session: GatewaySessionRef): Promise<string> {
  const inserted = await db
    .insertInto('conversations')
    .values({
      workspace_id: session.workspaceId,
      agent_id: session.agentId,
      session_input: JSON.stringify({ message: '' }),
      messages: '[]',
      tool_calls: '[]',
      final_response: '',
      guardrail_events: '[]',
      model: null,
      token_usage: null,
      source: 'gateway',
      mcp_session_id: session.mcpSessionId,
      token_id: session.tokenId,
    })
    .onConflict((oc) => oc.columns(['agent_id', 'mcp_session_id']).where('mcp_session_id', 'is not', null).doNothing())
    .returning('id')
    .executeTakeFirst();
  if (inserted) return inserted.id;
  const row = await db
    .selectFrom('conversations')
    .select('id')
    .where('agent_id', '=', session.agentId)
    .where('mcp_session_id', '=', session.mcpSessionId)
    .executeTakeFirstOrThrow();
  return row.id;
}

function argumentsObject(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** The call as the conversation keeps it under the capture policy, and whether a bound dropped part of it. */
export function recordedGatewayCall(
  call: GatewayCallRecord,
  capture: GatewayCapture,
): { entry: RecordedToolCall; truncated: boolean } {
  const entry: RecordedToolCall = {
    tool_name: call.tool,
    tool_args: {},
    server: call.serverName,
    ...(call.exposedName !== call.tool ? { exposed_name: call.exposedName } : {}),
    ...(call.isError ? { error: `tool ${call.tool} returned an error` } : {}),
    started_at: call.startedAt.toISOString(),
    latency_ms: Math.round(call.latencyMs),
    argument_bytes: call.argumentBytes,
    result_bytes: call.resultBytes,
  };
  if (capture === 'metadata') return { entry, truncated: false };
  const args = argumentsObject(call.arguments);
  const argsFit = jsonBytes(args) <= LIMITS.toolArgsBytes;
  const resultFits = call.result !== undefined && jsonBytes(call.result) <= LIMITS.toolResultBytes;
  if (argsFit) entry.tool_args = args;
  if (resultFits) entry.result = call.result;
  return { entry, truncated: !argsFit || (call.result !== undefined && !resultFits) };
}

/**
 * Adds calls to a gateway conversation, in order of the calls' start (concurrent calls of a session may finish out of
 * order). Past `toolCallsPerConversation` calls, or when a bound drops a call's arguments or result, the conversation
 * is marked truncated; the call itself is never refused. The gateway writes a session's calls in batches.
 */
export async function recordGatewayCalls(db: Db, conversationId: string, calls: GatewayCallRecord[]): Promise<void> {
  if (calls.length === 0) return;
  const agent = await db
    .selectFrom('conversations')
    .innerJoin('agents', 'agents.id', 'conversations.agent_id')
    .select('agents.gateway_capture')
    .where('conversations.id', '=', conversationId)
    .executeTakeFirst();
  if (!agent) return;
  const recorded = calls.map((call) => recordedGatewayCall(call, agent.gateway_capture));
  const entries = JSON.stringify(recorded.map((r) => r.entry));
  const truncated = recorded.some((r) => r.truncated);
  const max = LIMITS.toolCallsPerConversation;
  // The stored calls come first in the ordinality, so the bound keeps all of them and as many new ones as fit.
  await sql`
    UPDATE conversations SET
      tool_calls = (
        SELECT coalesce(jsonb_agg(call ORDER BY call->>'started_at', n), '[]'::jsonb)
        FROM jsonb_array_elements(tool_calls || ${entries}::jsonb) WITH ORDINALITY AS calls(call, n)
        WHERE n <= ${max}
      ),
      truncated = truncated OR ${truncated} OR jsonb_array_length(tool_calls) + ${calls.length} > ${max}
    WHERE id = ${conversationId} AND source = 'gateway'`.execute(db);
}

/** Adds one call to a gateway conversation (see `recordGatewayCalls`). */
export async function recordGatewayCall(db: Db, conversationId: string, call: GatewayCallRecord): Promise<void> {
  await recordGatewayCalls(db, conversationId, [call]);
}

/** Closes a gateway conversation: its latency becomes the session's duration. */
export async function closeGatewayConversation(db: Db, conversationId: string): Promise<void> {
  await sql`
    UPDATE conversations
    SET latency_ms = (extract(epoch FROM now() - created_at) * 1000)::integer
    WHERE id = ${conversationId} AND source = 'gateway' AND latency_ms IS NULL`.execute(db);
}
