import type { Db } from '../db/database';
import type { Logger } from '../lib/logger';

/** One tool call through the gateway, as the session's conversation records it. */
export interface GatewayCallRecord {
  serverId: string;
  serverName: string;
  /** The upstream tool name. */
  tool: string;
  /** What the client called. */
  exposedName: string;
  arguments: unknown;
  result: unknown;
  isError: boolean;
  latencyMs: number;
  argumentBytes: number;
  resultBytes: number;
  startedAt: Date;
}

/** Who a gateway session belongs to: the conversation it is recorded as is the agent's. */
export interface GatewaySessionOwner {
  workspaceId: string;
  agentId: string;
  mcpSessionId: string;
  tokenId: string | null;
}

/** Records a gateway session's calls; never throws into a call (failures are logged). */
export interface CallRecorder {
  call(record: GatewayCallRecord): void;
  close(): Promise<void>;
}

/**
 * The hook point where a gateway session's calls become a conversation of the agent (source `gateway`); until the
 * recorder exists it records nothing.
 */
export function sessionRecorder(_db: Db, _logger: Logger, _owner: GatewaySessionOwner): CallRecorder {
  return { call: () => undefined, close: async () => undefined };
}
