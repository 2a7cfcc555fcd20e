import WebSocket from 'ws';
import { isUuid } from '../../db/column-values';
import { findEvalRunById } from '../../db/eval-run.repository';
import type { Db } from '../../db/database';
import { roleAllows } from '../../domain/tenancy/permissions';
import { logError, type Logger } from '../../lib/logger';
import { roleIn, type AuthContext } from '../auth';
import { clientMessage, type ServerMessage } from './relay-messages';
import type { RunFeed } from './run-feed';
import { readRunSnapshot } from './run-snapshot';
import { createRunSubscription } from './run-subscription';
import { createTokenBucket } from '../../lib/token-bucket';

/**
 * The limits of one socket: a backlog above `maxBufferedBytes` must drain within `drainTimeoutMs`; subscribes are a
 * token bucket of `subscribeBurst` refilled at `subscribesPerSecond`.
 */
export interface ConnectionLimits {
  maxSubscriptions: number;
  maxBufferedBytes: number;
  drainTimeoutMs: number;
  subscribeBurst: number;
  subscribesPerSecond: number;
}

/** Close code for a client that does not read fast enough ("try again later"). */
export const SLOW_CONSUMER_CLOSE = 1013;

type Subscription = ReturnType<typeof createRunSubscription>;

type ClientMessage = NonNullable<ReturnType<typeof clientMessage.safeParse>['data']>;

function parseClientMessage(data: WebSocket.RawData, isBinary: boolean): ClientMessage | undefined {
  if (isBinary) return undefined;
  try {
    const parsed = clientMessage.safeParse(JSON.parse(data.toString()));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

// A large snapshot briefly exceeds the limit even for a fast reader, so only a backlog that does not drain in time
// counts: `onSlow` is called for it, and the caller closes that socket rather than buffer without bound.
function backpressuredSender(
  socket: WebSocket,
  limits: ConnectionLimits,
  isOpen: () => boolean,
  onSlow: () => void,
): { send(message: ServerMessage): void; stop(): void } {
  let drainTimer: NodeJS.Timeout | undefined;
  const backlogged = (): boolean => socket.bufferedAmount > limits.maxBufferedBytes;
  const watchBacklog = (): void => {
    if (drainTimer || !backlogged()) return;
    drainTimer = setTimeout(() => {
      drainTimer = undefined;
      if (isOpen() && backlogged()) onSlow();
    }, limits.drainTimeoutMs);
  };
  return {
    send(message) {
      if (!isOpen() || socket.readyState !== WebSocket.OPEN) return;
      socket.send(JSON.stringify(message));
      watchBacklog();
    },
    stop: () => clearTimeout(drainTimer),
  };
}

/** Serves one authenticated socket: subscribe/unsubscribe messages, snapshots, and back-pressure. */
export function serveRelayConnection(
  socket: WebSocket,
  auth: AuthContext,
  deps: {
    db: Db;
    logger: Logger;
    feed: RunFeed;
    limits: ConnectionLimits;
    /** Re-reads the socket's token; false (the socket is then being closed with 4401) when revoked or expired. */
    tokenActive(): Promise<boolean>;
  },
): { dispose(): void; recheckAccess(): Promise<void> } {
  const subscriptions = new Map<string, Subscription>();
  // The workspace of each run being followed, for the periodic re-check of the caller's membership and role.
  const workspaceOf = new Map<string, string>();
  const subscribeRate = createTokenBucket(deps.limits.subscribeBurst, deps.limits.subscribesPerSecond);
  let open = true;

  const dispose = (): void => {
    open = false;
    sender.stop();
    for (const [runId, subscription] of subscriptions) deps.feed.remove(runId, subscription);
    subscriptions.clear();
    workspaceOf.clear();
  };

  const shed = (): void => {
    deps.logger.warn(
      { user_id: auth.userId, token_id: auth.tokenId, buffered: socket.bufferedAmount },
      'eval relay closed a slow consumer',
    );
    dispose();
    socket.close(SLOW_CONSUMER_CLOSE, 'slow consumer: messages were not read fast enough');
  };
  const sender = backpressuredSender(socket, deps.limits, () => open, shed);
  const send = sender.send;
  const refuse = (code: string, message: string, runId?: string): void =>
    send({ type: 'error', code, message, ...(runId ? { run_id: runId } : {}) });

  const unsubscribe = (runId: string): void => {
    const current = subscriptions.get(runId);
    if (!current) return;
    subscriptions.delete(runId);
    workspaceOf.delete(runId);
    deps.feed.remove(runId, current);
  };

  // A member removed (or left without evals:view) since subscribing stops receiving the workspace's events.
  const recheckAccess = async (): Promise<void> => {
    for (const workspaceId of new Set(workspaceOf.values())) {
      const role = await roleIn(deps.db, auth, workspaceId);
      if (role && roleAllows(role, 'evals:view')) continue;
      for (const [runId, of] of workspaceOf) {
        if (of !== workspaceId) continue;
        unsubscribe(runId);
        refuse('forbidden', "no longer allowed to view the run's workspace", runId);
      }
    }
  };

  const follow = async (runId: string, subscription: Subscription): Promise<void> => {
    if (!(await deps.tokenActive())) return;
    const run = isUuid(runId) ? await findEvalRunById(deps.db, runId) : undefined;
    const role = run ? await roleIn(deps.db, auth, run.workspace_id) : undefined;
    if (subscriptions.get(runId) !== subscription) return;
    if (!run || !role) {
      subscriptions.delete(runId);
      refuse('not_found', 'eval run not found', runId);
      return;
    }
    if (!roleAllows(role, 'evals:view')) {
      subscriptions.delete(runId);
      refuse('forbidden', 'missing permission evals:view', runId);
      return;
    }
    // Follow first, read second: whatever commits after the snapshot's instant is already being buffered.
    workspaceOf.set(runId, run.workspace_id);
    deps.feed.add(runId, subscription);
    const snapshot = await readRunSnapshot(deps.db, runId);
    if (subscriptions.get(runId) !== subscription) return;
    if (!snapshot) {
      unsubscribe(runId);
      refuse('not_found', 'eval run not found', runId);
      return;
    }
    subscription.start(snapshot);
  };

  const subscribe = (runId: string): void => {
    if (!subscribeRate.take()) {
      const { subscribeBurst, subscribesPerSecond } = deps.limits;
      refuse(
        'rate_limited',
        `at most ${subscribeBurst} subscribes at once, then ${subscribesPerSecond} per second`,
        runId,
      );
      return;
    }
    unsubscribe(runId);
    if (subscriptions.size >= deps.limits.maxSubscriptions) {
      refuse(
        'too_many_subscriptions',
        `at most ${deps.limits.maxSubscriptions} runs can be followed on one connection`,
        runId,
      );
      return;
    }
    // The slot is taken before any await, so concurrent subscribes cannot exceed the cap.
    const subscription = createRunSubscription(runId, send);
    subscriptions.set(runId, subscription);
    follow(runId, subscription).catch((error: unknown) => {
      if (subscriptions.get(runId) !== subscription) return;
      unsubscribe(runId);
      deps.logger.error({ run_id: runId, ...logError(error) }, 'eval relay subscribe failed');
      refuse('internal', 'the run could not be read; try again', runId);
    });
  };

  socket.on('message', (data, isBinary) => {
    if (!open) return;
    const message = parseClientMessage(data, isBinary);
    if (!message) {
      refuse('bad_request', 'expected {"type":"subscribe"|"unsubscribe","run_id":"<eval run id>"}');
      return;
    }
    if (message.type === 'subscribe') return subscribe(message.run_id);
    unsubscribe(message.run_id);
    send({ type: 'unsubscribed', run_id: message.run_id });
  });
  socket.on('close', dispose);
  return { dispose, recheckAccess };
}
