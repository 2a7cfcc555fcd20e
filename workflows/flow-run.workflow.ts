import { ActivityFailure, CancellationScope, proxyActivities, TimeoutFailure } from '@temporalio/workflow';
import { TimeoutType } from '@temporalio/common';
import type { FlowNodeOutcome, FlowRunRef } from '../activities/flow/flow.activities';
import { FLOW_BOOKKEEPING_ACTIVITY, flowNodeActivity } from './activity-options';
import type { Activities } from '../activities';

const { startFlowRun, completeFlowRun } = proxyActivities<Activities>(FLOW_BOOKKEEPING_ACTIVITY);

// Before the worker reported its node timeout (histories started then), a node had three minutes.
const DEFAULT_NODE_TIMEOUT_MS = 180_000;

const stopping = (): boolean => CancellationScope.current().consideredCancelled;

function nodeFailure(error: unknown, timeoutMs: number): string {
  const cause = error instanceof ActivityFailure ? error.cause : error;
  if (cause instanceof TimeoutFailure && cause.timeoutType === TimeoutType.HEARTBEAT)
    return 'the worker running it stopped answering';
  if (cause instanceof TimeoutFailure) return `timed out after ${timeoutMs / 1000} s`;
  return cause instanceof Error ? cause.message : String(cause);
}

/**
 * Runs a flow's nodes in order (a flow holds a bounded number of nodes); the first failed or timed-out node fails the
 * run, and a cancelled run ends `cancelled`: the row never stays `running` once the workflow has stopped.
 */
export async function flowRunWorkflow(input: FlowRunRef): Promise<{ status: string }> {
  let current: string | undefined;
  try {
    const { nodeIds, nodeTimeoutMs = DEFAULT_NODE_TIMEOUT_MS } = await startFlowRun(input);
    const { runFlowNode } = proxyActivities<Activities>(flowNodeActivity(nodeTimeoutMs));
    for (const nodeId of nodeIds) {
      current = nodeId;
      let outcome: FlowNodeOutcome;
      try {
        outcome = await runFlowNode({ ...input, nodeId });
      } catch (error) {
        // Only the run's own cancellation stops it; a node cancelled for another reason (worker shutdown) failed.
        if (stopping()) throw error;
        const message = nodeFailure(error, nodeTimeoutMs);
        return await completeFlowRun({
          ...input,
          status: 'failed',
          error: `node ${nodeId}: ${message}`,
          stoppedNode: { id: nodeId, error: message },
        });
      }
      if (outcome.status === 'failed')
        return await completeFlowRun({
          ...input,
          status: 'failed',
          error: `node ${nodeId}: ${outcome.error ?? 'failed'}`,
        });
    }
    return await completeFlowRun({ ...input, status: 'completed' });
  } catch (error) {
    if (!stopping()) throw error;
    const stoppedNode = current === undefined ? undefined : { id: current, error: 'cancelled' };
    await CancellationScope.nonCancellable(() =>
      completeFlowRun({ ...input, status: 'cancelled', error: 'the run was cancelled', stoppedNode }),
    );
    throw error;
  }
}
