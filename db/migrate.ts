import { Migrator, type Migration } from 'kysely/migration';
import type { Db } from './database';
import * as platform from './migrations/0001-platform';
import * as evaluation from './migrations/0002-evaluation';
import * as mcp from './migrations/0003-mcp';
import * as agentRuntime from './migrations/0004-agent-runtime';
import * as operators from './migrations/0005-operators';
import * as runCancellation from './migrations/0006-run-cancellation';
import * as fairShare from './migrations/0007-fair-share';
import * as keysetIndexes from './migrations/0008-keyset-indexes';
import * as runAgentPin from './migrations/0009-run-agent-pin';
import * as scoredBy from './migrations/0010-scored-by';
import * as runTags from './migrations/0011-run-tags';
import * as runRetryOf from './migrations/0012-run-retry-of';
import * as workspaceDeletion from './migrations/0013-workspace-deletion';
import * as serviceTokens from './migrations/0014-service-tokens';
import * as auditEvents from './migrations/0015-audit-events';
import * as trajectoryMatch from './migrations/0016-trajectory-match';
import * as runRepeats from './migrations/0017-run-repeats';
import * as judgeCache from './migrations/0018-judge-cache';
import * as modelPrices from './migrations/0019-model-prices';
import * as mcpHealth from './migrations/0020-mcp-health';
import * as scopedTokens from './migrations/0021-scoped-tokens';
import * as judgeCacheBytes from './migrations/0022-judge-cache-bytes';
import * as multiTurn from './migrations/0023-multi-turn';
import * as caseSkipped from './migrations/0024-case-skipped';
import * as agentRunTurns from './migrations/0025-agent-run-turns';
import * as simulatedUsers from './migrations/0026-simulated-users';
import * as toolMocks from './migrations/0027-tool-mocks';
import * as toolApproval from './migrations/0028-tool-approval';
import * as gatewayRecording from './migrations/0029-gateway-recording';
import * as gatewayLinks from './migrations/0030-gateway-links';
import * as mcpOauth from './migrations/0031-mcp-oauth';
import * as criteriaRigor from './migrations/0034-criteria-rigor';
import * as invitationClaims from './migrations/0035-invitation-claims';
import * as mcpConfigChanged from './migrations/0036-mcp-config-changed';
import * as mcpStepUpScope from './migrations/0037-mcp-step-up-scope';

// A static list rather than a folder scan: works the same under tsx, a bundle or a compiled build.
/** Every migration by name, in order (a test migrates to one of them to check the next on rows it wrote). */
export const migrations: Record<string, Migration> = {
  '0001-platform': platform,
  '0002-evaluation': evaluation,
  '0003-mcp': mcp,
  '0004-agent-runtime': agentRuntime,
  '0005-operators': operators,
  '0006-run-cancellation': runCancellation,
  '0007-fair-share': fairShare,
  '0008-keyset-indexes': keysetIndexes,
  '0009-run-agent-pin': runAgentPin,
  '0010-scored-by': scoredBy,
  '0011-run-tags': runTags,
  '0012-run-retry-of': runRetryOf,
  '0013-workspace-deletion': workspaceDeletion,
  '0014-service-tokens': serviceTokens,
  '0015-audit-events': auditEvents,
  '0016-trajectory-match': trajectoryMatch,
  '0017-run-repeats': runRepeats,
  '0018-judge-cache': judgeCache,
  '0019-model-prices': modelPrices,
  '0020-mcp-health': mcpHealth,
  '0021-scoped-tokens': scopedTokens,
  '0022-judge-cache-bytes': judgeCacheBytes,
  '0023-multi-turn': multiTurn,
  '0024-case-skipped': caseSkipped,
  '0025-agent-run-turns': agentRunTurns,
  '0026-simulated-users': simulatedUsers,
  '0027-tool-mocks': toolMocks,
  '0028-tool-approval': toolApproval,
  '0029-gateway-recording': gatewayRecording,
  '0030-gateway-links': gatewayLinks,
  '0031-mcp-oauth': mcpOauth,
  '0034-criteria-rigor': criteriaRigor,
  '0035-invitation-claims': invitationClaims,
  '0036-mcp-config-changed': mcpConfigChanged,
  '0037-mcp-step-up-scope': mcpStepUpScope,
};

/** Brings the schema up to date; safe to call on every start. */
export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
