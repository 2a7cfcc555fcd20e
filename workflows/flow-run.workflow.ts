import { proxyActivities } from '@temporalio/workflow';
import type { FlowActivities, FlowRunRef } from '../activities/flow.activities';

const { startFlowRun, completeFlowRun } = proxyActivities<FlowActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
});

// Tool calls have effects outside Assay (an e-mail sent, a payment made): never repeated automatically.
const { runFlowNode } = proxyActivities<FlowActivities>({
  startToCloseTimeout: '3 minutes',
  retry: { maximumAttempts: 1 },
});

/** Runs a flow's nodes in order (a flow holds a bounded number of nodes); the first failed node fails the run. */
export async function flowRunWorkflow(input: FlowRunRef): Promise<{ status: string }> {
  const { nodeIds } = await startFlowRun(input);
  for (const nodeId of nodeIds) {
    const outcome = await runFlowNode({ ...input, nodeId });
    if (outcome.status === 'failed')
      return completeFlowRun({ ...input, status: 'failed', error: `node ${nodeId}: ${outcome.error ?? 'failed'}` });
  }
  return completeFlowRun({ ...input, status: 'completed' });
}
