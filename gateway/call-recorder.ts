import type { Db } from '../db/database';
import {
  closeGatewayConversation,
  openGatewayConversation,
  recordGatewayCall,
  type GatewayCallRecord,
  type GatewaySessionRef,
} from '../db/gateway-recording.repository';
import { logError, type Logger } from '../lib/logger';

export type { GatewayCallRecord } from '../db/gateway-recording.repository';

/** Who a gateway session belongs to: the conversation it is recorded as is the agent's. */
export type GatewaySessionOwner = GatewaySessionRef;

/** Records a gateway session's calls; never throws into a call (failures are logged). */
export interface CallRecorder {
  call(record: GatewayCallRecord): void;
  close(): Promise<void>;
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/**
 * Records a gateway session as one conversation of the agent (source `gateway`), opened at its first call. `call`
 * returns at once: the write runs after the answer has gone out (next event-loop turn), one at a time per session so
 * the session holds one connection at most, and a failure is logged, never thrown into the call.
 */
export function sessionRecorder(db: Db, logger: Logger, owner: GatewaySessionOwner): CallRecorder {
  let conversation: Promise<string> | undefined;
  let writes: Promise<void> = Promise.resolve();
  const log = { agent_id: owner.agentId, mcp_session_id: owner.mcpSessionId };
  const failed = (what: string) => (error: unknown) => logger.error({ ...logError(error), ...log }, what);
  return {
    call(record) {
      writes = writes
        .then(nextTurn)
        .then(async () => {
          // A failed open is tried again at the next call.
          conversation ??= openGatewayConversation(db, owner).catch((error: unknown) => {
            conversation = undefined;
            throw error;
          });
          await recordGatewayCall(db, await conversation, record);
        })
        .catch(failed('gateway call not recorded'));
    },
    async close() {
      await writes;
      if (!conversation) return;
      await conversation.then((id) => closeGatewayConversation(db, id)).catch(failed('gateway recording not closed'));
    },
  };
}
