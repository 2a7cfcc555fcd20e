export { pingWorkflow } from './ping.workflow';
export { mcpServerTestWorkflow } from './mcp-server-test.workflow';
export { mcpToolSyncWorkflow } from './mcp-tool-sync.workflow';
export { mcpHealthCheckWorkflow } from './mcp-health-check.workflow';
export { flowRunWorkflow } from './flow-run.workflow';
export { evalRunWorkflow } from './eval-run.workflow';
export { agentRunWorkflow } from './agent-run.workflow';
export { workspaceDeletionWorkflow } from './workspace-deletion.workflow';
export { runSweepWorkflow, auditPurgeWorkflow } from './maintenance.workflow';
