import type { WebSocket } from 'ws';
import type { Db } from '../../db/database';
import { findActiveTokenIds } from '../../db/api-token.repository';
import { logError, type Logger } from '../../lib/logger';

/** Close code for a socket whose token was revoked or expired (found by the periodic re-check or at a subscribe). */
export const TOKEN_REVOKED_CLOSE = 4401;
/** Close code for a socket over the cap of open sockets per token (per api process). */
export const TOO_MANY_SOCKETS_CLOSE = 4429;

/** The open sockets of this process grouped by the token that opened them, re-checked against Postgres. */
export interface TokenWatch {
  /** Sockets open on `tokenId` now. */
  count(tokenId: string): number;
  /** Follows a socket until it closes; `recheckAccess` runs at every re-check that finds its token still usable. */
  track(tokenId: string, socket: WebSocket, recheckAccess?: () => Promise<void>): void;
  /** Re-reads one token; when it is revoked or expired, closes all its sockets and resolves false. */
  recheck(tokenId: string): Promise<boolean>;
  stop(): void;
}

/**
 * Re-checks every `intervalMs` the tokens of all open sockets in one query, and closes with 4401 every socket whose
 * token is no longer usable, so a revoked or expired token loses its sockets within one interval; the other sockets
 * then re-check their caller's membership and role (a removed member's subscriptions end). A failed read keeps the
 * sockets (a database blip must not drop every client) and is tried again at the next tick.
 */
export function watchTokens(db: Db, logger: Logger, intervalMs: number): TokenWatch {
  const sockets = new Map<string, Map<WebSocket, () => Promise<void>>>();
  let checking = false;

  const closeAll = (tokenId: string): void => {
    const open = sockets.get(tokenId);
    if (!open) return;
    sockets.delete(tokenId);
    logger.info(
      { token_id: tokenId, sockets: open.size },
      'eval relay closed the sockets of a revoked or expired token',
    );
    for (const socket of open.keys()) socket.close(TOKEN_REVOKED_CLOSE, 'token revoked or expired');
  };

  const checkAll = async (): Promise<void> => {
    // A slow read must not stack up behind itself: the next tick comes after this one finished.
    if (checking || sockets.size === 0) return;
    checking = true;
    try {
      const ids = [...sockets.keys()];
      const active = await findActiveTokenIds(db, ids);
      for (const id of ids) if (!active.has(id)) closeAll(id);
      // One socket at a time: each re-check reads at most one role per workspace it follows runs in.
      for (const open of [...sockets.values()]) for (const recheckAccess of [...open.values()]) await recheckAccess();
    } catch (error) {
      logger.warn(logError(error), 'eval relay could not re-check tokens; will retry');
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void checkAll(), intervalMs);
  timer.unref();

  return {
    count: (tokenId) => sockets.get(tokenId)?.size ?? 0,
    track(tokenId, socket, recheckAccess = async () => undefined) {
      const open = sockets.get(tokenId) ?? new Map<WebSocket, () => Promise<void>>();
      open.set(socket, recheckAccess);
      sockets.set(tokenId, open);
      socket.once('close', () => {
        open.delete(socket);
        if (open.size === 0 && sockets.get(tokenId) === open) sockets.delete(tokenId);
      });
    },
    async recheck(tokenId) {
      if ((await findActiveTokenIds(db, [tokenId])).has(tokenId)) return true;
      closeAll(tokenId);
      return false;
    },
    stop: () => clearInterval(timer),
  };
}
