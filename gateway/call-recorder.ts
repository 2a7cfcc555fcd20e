import type { Db } from '../db/database';
import {
  closeGatewayConversation,
  openGatewayConversation,
  recordGatewayCalls,
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

/** How long a call may wait to be written with the session's next ones, and how many one write takes. */
const FLUSH_MS = 50;
const BATCH_CALLS = 100;

/**
 * Records a gateway session as one conversation of the agent (source `gateway`), opened at its first call. `call`
 * returns at once: the calls are written after their answers, in batches (one statement per batch, one batch at a
 * time per session, so a busy session neither waits for nor floods Postgres), and a failure is logged, never thrown
 * into the call.
 */
export function sessionRecorder(db: Db, logger: Logger, owner: GatewaySessionOwner): CallRecorder {
  let conversation: Promise<string> | undefined;
  let pending: GatewayCallRecord[] = [];
  let timer: NodeJS.Timeout | undefined;
  let writes: Promise<void> = Promise.resolve();
  const log = { agent_id: owner.agentId, mcp_session_id: owner.mcpSessionId };
  const failed = (what: string) => (error: unknown) => logger.error({ ...logError(error), ...log }, what);
  const flush = (): void => {
    clearTimeout(timer);
    timer = undefined;
    const batch = pending;
    pending = [];
    if (batch.length === 0) return;
    writes = writes
      .then(async () => {
        // A failed open is tried again at the next batch.
        conversation ??= openGatewayConversation(db, owner).catch((error: unknown) => {
          conversation = undefined;
          throw error;
        });
        await recordGatewayCalls(db, await conversation, batch);
      })
      .catch(failed('gateway calls not recorded'));
  };
  return {
    call(record) {
      pending.push(record);
      if (pending.length >= BATCH_CALLS) flush();
      else timer ??= setTimeout(flush, FLUSH_MS);
    },
    async close() {
      flush();
      await writes;
      if (!conversation) return;
      await conversation.then((id) => closeGatewayConversation(db, id)).catch(failed('gateway recording not closed'));
    },
  };
}
