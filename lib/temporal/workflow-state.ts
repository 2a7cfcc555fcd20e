import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { WorkflowState } from '../../domain/eval/run-end';

/** A workflow's status by id (its latest run), or `NOT_FOUND` when Temporal has no such workflow. */
export async function workflowState(client: Client, workflowId: string): Promise<WorkflowState> {
  try {
    return (await client.workflow.getHandle(workflowId).describe()).status.name;
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) return 'NOT_FOUND';
    throw error;
  }
}
