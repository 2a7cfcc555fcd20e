/**
 * Each workspace's share of something one process runs for all of them (a worker's scheduled health checks, the
 * gateway's stdio children), at most `cap` at once. An in-process count (not a Postgres lease like the eval slots):
 * the point is that one workspace never holds all of this process's capacity.
 */
export interface WorkspaceSlots {
  /** Takes one of the workspace's slots: the release to call when it ends, or null while all are held. */
  tryTake(workspaceId: string): (() => void) | null;
  /** Slots of the workspace held now. */
  held(workspaceId: string): number;
}

/** The slots of one process, `cap` per workspace; a workspace with none held takes no memory. */
export function createWorkspaceSlots(cap: number): WorkspaceSlots {
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
