import type { Db } from '../../db/database';
import { liveWorkspaceIds } from '../../db/workspace-purge.repository';

// How often a worker with cached judge sessions looks for deleted workspaces among them.
const SWEEP_MS = 2_000;

/**
 * Drops the cached judge sessions (and with them the keys) of workspaces deleted since they were opened. Each worker
 * looks at its own cache, one indexed query for the workspaces it holds, only while it holds any: every worker is
 * reached without a broadcast, and a worker that was down or busy at the deletion cannot miss it.
 */
export function sweepDeletedWorkspaces<S extends { workspaceId: string }>(
  db: Db,
  sessions: Map<string, S>,
): { wake(): void } {
  let timer: NodeJS.Timeout | undefined;
  const sweep = async (): Promise<void> => {
    if (sessions.size === 0) {
      clearInterval(timer);
      timer = undefined;
      return;
    }
    const live = new Set(await liveWorkspaceIds(db, [...new Set([...sessions.values()].map((s) => s.workspaceId))]));
    for (const [key, session] of sessions) if (!live.has(session.workspaceId)) sessions.delete(key);
  };
  return {
    /** Starts sweeping (a session was cached); it stops by itself once the cache is empty. */
    wake() {
      timer ??= setInterval(() => void sweep().catch(() => undefined), SWEEP_MS).unref();
    },
  };
}
