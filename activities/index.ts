import type { ActivityDeps } from './activity-deps';
import { createAgentRuntimeActivities } from './agent-runtime.activities';
import { createAgentToolCallActivities } from './agent-tool-call.activities';
import { createCaseSlotActivities } from './case-slot.activities';
import { createEvalRunActivities } from './eval-run.activities';
import { createFlowActivities } from './flow.activities';
import { createMaintenanceActivities } from './maintenance.activities';
import { createMcpActivities } from './mcp.activities';
import { createMcpHealthActivities } from './mcp-health.activities';
import { createPlatformActivities } from './platform.activities';
import { createWorkspaceDeletionActivities } from './workspace-deletion.activities';
import { createWorkspaceRunActivities } from './workspace-runs.activities';

/** Every activity the worker registers, each group built from the same dependencies. */
export function createActivities(deps: ActivityDeps): object {
  return {
    ...createPlatformActivities(),
    ...createMcpActivities(deps),
    ...createMcpHealthActivities(deps),
    ...createFlowActivities(deps),
    ...createEvalRunActivities(deps),
    ...createCaseSlotActivities(deps),
    ...createAgentRuntimeActivities(deps),
    ...createAgentToolCallActivities(deps),
    ...createWorkspaceDeletionActivities(deps),
    ...createWorkspaceRunActivities(deps),
    ...createMaintenanceActivities(deps),
  };
}
