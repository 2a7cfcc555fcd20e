import type { ActivityDeps } from './platform/activity-deps';
import { createAgentRuntimeActivities } from './agent/agent-runtime.activities';
import { createAgentToolCallActivities } from './agent/agent-tool-call.activities';
import { createSandboxAgentRunActivities } from './agent/sandbox-agent-run.activities';
import { createCaseSlotActivities } from './eval/case-slot.activities';
import { createEvalRunActivities } from './eval/eval-run.activities';
import { createLiveCaseActivities } from './eval/live-case.activities';
import { createUserSimulatorActivities } from './agent/user-simulator.activities';
import { createJudge } from './judge/judge.service';
import { createFlowActivities } from './flow/flow.activities';
import { createMaintenanceActivities } from './platform/maintenance.activities';
import { createMcpActivities } from './mcp/mcp.activities';
import { createMcpHealthActivities } from './mcp/mcp-health.activities';
import { createMcpToolCallActivities } from './mcp/mcp-tool-call.activities';
import { createPlatformActivities } from './platform/platform.activities';
import { createWorkspaceDeletionActivities } from './platform/workspace-deletion.activities';
import { createWorkspaceRunActivities } from './platform/workspace-runs.activities';

/** Every activity the worker registers, each group built from the same dependencies. */
export function createActivities(deps: ActivityDeps) {
  // One judge (its connections and limiters kept between cases) for scoring and the simulated users it prices alike.
  const judge = createJudge(deps);
  const evalRun = createEvalRunActivities(deps, judge);
  const sandbox = createSandboxAgentRunActivities(deps, judge);
  return {
    ...createPlatformActivities(),
    ...createMcpActivities(deps),
    ...createMcpHealthActivities(deps),
    ...createMcpToolCallActivities(deps),
    ...createFlowActivities(deps),
    ...evalRun,
    ...createLiveCaseActivities(deps, evalRun, sandbox),
    ...createCaseSlotActivities(deps),
    ...createAgentRuntimeActivities(deps),
    ...createUserSimulatorActivities(deps, judge),
    ...createAgentToolCallActivities(deps),
    ...sandbox,
    ...createWorkspaceDeletionActivities(deps),
    ...createWorkspaceRunActivities(deps),
    ...createMaintenanceActivities(deps),
  };
}

/** Every registered activity with its signature: the one type workflows proxy. */
export type Activities = ReturnType<typeof createActivities>;
