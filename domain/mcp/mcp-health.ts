/** The id of a server's health-check schedule (and the prefix of the workflows it starts). */
export const mcpHealthScheduleId = (serverId: string): string => `mcp-health:${serverId}`;

/** How often a server is checked when its create request does not say. */
export const DEFAULT_HEALTH_CHECK_INTERVAL_SECONDS = 300;

/** A server's health bookkeeping: its status, failed checks in a row, and the status a recovery restores. */
export interface McpHealthState {
  status: string;
  failures: number;
  /** Set only while the checks themselves hold the server in `error`: the status it had before. */
  restoreStatus: string | null;
}

/**
 * The state after one check: `failuresToError` failures in a row put a server in `error` (remembering its status);
 * the next success gives that status back. An `error` the checks did not cause (a failed sync) is left alone, and so
 * is `authorization_required` (only a person authorizing again can end it; the checks' messages say so).
 */
export function nextHealthState(state: McpHealthState, ok: boolean, failuresToError: number): McpHealthState {
  if (ok) return { status: state.restoreStatus ?? state.status, failures: 0, restoreStatus: null };
  const failures = state.failures + 1;
  if (failures >= failuresToError && state.status !== 'error' && state.status !== 'authorization_required')
    return { status: 'error', failures, restoreStatus: state.status };
  return { ...state, failures };
}
