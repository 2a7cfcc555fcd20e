/**
 * Each workspace's scheduled health checks in flight on this worker, at most `cap` at once. An in-process count (not
 * a Postgres lease like the eval slots): a check is short, skipping one costs nothing but its turn, and the point is
 * that this worker's activity slots are never all held by one workspace's servers.
 */
export interface HealthCheckSlots {
  /** Takes one of the workspace's slots: the release to call when the check ends, or null while all are held. */
  tryTake(workspaceId: string): (() => void) | null;
  /** Checks of the workspace in flight on this worker. */
  held(workspaceId: string): number;
}

/** The slots of one worker, `cap` per workspace; a workspace with none held takes no memory. */
export function createHealthCheckSlots(cap: number): HealthCheckSlots {
  const inFlight = new Map<string, number>();
  const held = (workspaceId: string): number => inFlight.get(workspaceId) ?? 0;
  return {
    held,
    tryTake(workspaceId) {
      if (held(workspaceId) >= cap) return null;
      inFlight.set(workspaceId, held(workspaceId) + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = held(workspaceId) - 1;
        if (left > 0) inFlight.set(workspaceId, left);
        else inFlight.delete(workspaceId);
      };
    },
  };
}
