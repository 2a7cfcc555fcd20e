import type { ActivityOptions, LocalActivityOptions, RetryPolicy } from '@temporalio/workflow';

/**
 * Every activity timeout and retry policy, named once: each workflow proxies its activities with one of these, so a
 * policy is changed here and nowhere else. Comments say why each group retries the way it does.
 */

// Database bookkeeping: quick, idempotent, retried for a while so a Postgres restart does not fail a run.
const patientRetry: RetryPolicy = {
  initialInterval: '1 second',
  backoffCoefficient: 2,
  maximumInterval: '30 seconds',
  maximumAttempts: 8,
};

/** Reads and writes of run rows (eval runs, agent runs): one minute each, eight attempts. */
export const BOOKKEEPING_ACTIVITY: ActivityOptions = { startToCloseTimeout: '1 minute', retry: patientRetry };

/**
 * Scoring a batch of cases: judge calls and transient case failures retry inside the activity; a few attempts cover the
 * rest (each skips what earlier ones stored), and the heartbeat moves a dead worker's batch within 20 s. The time limit
 * is generous because a batch of up to 100 slow judged cases is one attempt; the heartbeat, not it, catches a stall.
 */
export const SCORING_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '20 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 3 },
};

/** One model step of an agent: may take minutes, but heartbeats move a dead worker's step to another within 20 s. */
export const MODEL_STEP_ACTIVITY: ActivityOptions = {
  ...SCORING_ACTIVITY,
  startToCloseTimeout: '30 minutes',
  retry: { ...SCORING_ACTIVITY.retry, maximumAttempts: 5 },
};

/** One tool call of an agent: safe to retry (built-in effects are keyed by call, a production MCP call is made once). */
export const AGENT_TOOL_CALL_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { ...patientRetry, maximumAttempts: 3 },
};

/**
 * A sandbox agent run's turns in one activity (a live eval case): its model steps and simulated calls, each stored as
 * it ends, so a retry resumes after the last stored one. Long, since a case may take many slow steps; the heartbeat,
 * not the time limit, catches a dead worker.
 */
export const SANDBOX_AGENT_RUN_ACTIVITY: ActivityOptions = { ...MODEL_STEP_ACTIVITY, startToCloseTimeout: '2 hours' };

/** A live case in one activity (its sandbox runs, then its scoring): retried like a sandbox run, which it resumes. */
export const LIVE_CASE_ACTIVITY: ActivityOptions = SANDBOX_AGENT_RUN_ACTIVITY;

/** Starting and completing a flow run's row. */
export const FLOW_BOOKKEEPING_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
};

/** One flow node: tool calls have effects outside Assay (an e-mail sent, a payment made), so never repeated. */
export function flowNodeActivity(nodeTimeoutMs: number): ActivityOptions {
  return { startToCloseTimeout: nodeTimeoutMs, heartbeatTimeout: '30 seconds', retry: { maximumAttempts: 1 } };
}

/** The MCP connection test: one attempt, the caller waits for this exact answer and failures come back as a result. */
export const MCP_TEST_ACTIVITY: ActivityOptions = { startToCloseTimeout: '90 seconds', retry: { maximumAttempts: 1 } };

/** A playground tool call: the tool may have effects, so one attempt; the call's own timeout is 60 s. */
export const MCP_CALL_ACTIVITY: ActivityOptions = { startToCloseTimeout: '90 seconds', retry: { maximumAttempts: 1 } };

/** The MCP tool sync: transient failures get two more tries; the activity marks unfixable ones non-retryable. */
export const MCP_SYNC_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '3 minutes',
  retry: { maximumAttempts: 3, initialInterval: '1 second', backoffCoefficient: 2 },
};

/**
 * A batch of a deleted workspace's purge (secrets or rows): idempotent, so it retries without an attempt limit until
 * the vault or Postgres is back; the backoff caps at a minute so an outage costs few attempts.
 */
export const WORKSPACE_PURGE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '5 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
};

/**
 * Stopping a deleted workspace's runs: cancels them, then waits (heartbeating) until each has ended, terminating any
 * still running after its grace. Retried like the purge it comes before; the heartbeat moves it off a dead worker.
 */
export const WORKSPACE_STOP_ACTIVITY: ActivityOptions = {
  ...WORKSPACE_PURGE_ACTIVITY,
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
};

/**
 * A scheduled upkeep pass (run sweep, audit purge): one attempt, since the next scheduled pass is the retry; the
 * heartbeat moves a dead worker's pass on within 30 s, and a long pass beats once per run it looks at.
 */
export const MAINTENANCE_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 1 },
};

/** The platform ping. */
export const PING_ACTIVITY: ActivityOptions = { startToCloseTimeout: '10 seconds' };

/** Taking a free case slot or giving one back: local activities, one marker event each, no server round trip. */
export const CASE_SLOT_QUICK_ACTIVITY: LocalActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: {
    initialInterval: '200 milliseconds',
    backoffCoefficient: 2,
    maximumInterval: '2 seconds',
    maximumAttempts: 5,
  },
};

/**
 * Waiting for a case slot is this activity's retries: the server re-runs it after a backoff capped at a few seconds,
 * which records no history event, holds no worker slot and uses no attempt of the case. No attempt limit: while the
 * workspace is full its other cases are progressing, and every lease ends.
 */
export const CASE_SLOT_WAIT_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '500 milliseconds', backoffCoefficient: 1.5, maximumInterval: '5 seconds' },
};

/** Renewing a held case slot's lease. */
export const CASE_SLOT_RENEW_ACTIVITY: ActivityOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { ...patientRetry, maximumInterval: '10 seconds', maximumAttempts: 5 },
};
