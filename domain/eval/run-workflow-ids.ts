/** The workflow id of an eval run (`eval-run:<run id>`): here so activities that stop runs can name it too. */
export const evalRunWorkflowId = (runId: string): string => `eval-run:${runId}`;

/** The workflow id of a flow run (`flow-run:<run id>`). */
export const flowRunWorkflowId = (runId: string): string => `flow-run:${runId}`;
