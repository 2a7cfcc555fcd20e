import { Context } from '@temporalio/activity';
import { logError } from '../../lib/logger';
import type { ActivityDeps } from './activity-deps';
import { purgeExpiredAuditEvents } from './audit-retention';
import { sweepUnfinishedRuns } from './run-sweep';

/**
 * Activities of the periodic upkeep, each started by a Temporal Schedule (one per task queue) rather than a timer in
 * every worker: the sweep of runs whose workflow closed without ending them, and the audit trail's retention.
 */
export function createMaintenanceActivities(deps: ActivityDeps) {
  // A failed pass is logged here and left to the next scheduled one.
  const logged = async (task: () => Promise<number>, failure: string): Promise<number> =>
    task().catch((error: unknown) => {
      deps.logger.warn(logError(error), failure);
      throw error;
    });
  return {
    /** Ends the runs whose workflow closed without ending them; answers how many. */
    async sweepRuns(_input: Record<string, never>): Promise<number> {
      const beat = (): void => Context.current().heartbeat();
      return logged(
        () => sweepUnfinishedRuns({ db: deps.db, client: deps.temporal, logger: deps.logger, beat }),
        'run sweep failed; retrying next time',
      );
    },

    /** Deletes the audit entries past `AUDIT_RETENTION_DAYS`; answers how many. */
    async purgeAuditTrail(_input: Record<string, never>): Promise<number> {
      const retentionDays = deps.config.AUDIT_RETENTION_DAYS;
      return logged(
        () => purgeExpiredAuditEvents({ db: deps.db, logger: deps.logger, retentionDays }),
        'audit purge failed; retrying next time',
      );
    },
  };
}

export type MaintenanceActivities = ReturnType<typeof createMaintenanceActivities>;
