import { proxyActivities } from '@temporalio/workflow';
import type { MaintenanceActivities } from '../activities/platform/maintenance.activities';
import { MAINTENANCE_ACTIVITY } from './activity-options';

const { sweepRuns, purgeAuditTrail } = proxyActivities<MaintenanceActivities>(MAINTENANCE_ACTIVITY);

/** One scheduled sweep (schedule `run-sweep:<task queue>`): ends the runs whose workflow closed without ending them. */
export async function runSweepWorkflow(input: Record<string, never>): Promise<number> {
  return sweepRuns(input);
}

/** One scheduled purge (schedule `audit-purge:<task queue>`) of the audit entries past their retention. */
export async function auditPurgeWorkflow(input: Record<string, never>): Promise<number> {
  return purgeAuditTrail(input);
}
