import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { insertFlow } from '../../db/flow.repository';
import { findFlowRun, insertFlowRun } from '../../db/flow-run.repository';
import { waitFor } from '../../lib/embedded/process-utils';
import { workflowIds } from '../../workflows/temporal-names';
import { ensureMaintenanceSchedules } from '../../worker/maintenance-schedules';
import { harness } from '../helpers/harness';
import { createTestPlatform, type TestPlatform } from '../helpers/platform';
import { createTenant, type Tenant } from '../helpers/tenants';

describe('periodic upkeep: one Temporal Schedule per task queue, whatever the number of workers', function () {
  this.timeout(120_000);
  let platform: TestPlatform;
  let tenant: Tenant;
  const schedule = (id: (queue: string) => string) =>
    platform.runtime.temporal.client.schedule.getHandle(id(platform.config.TEMPORAL_TASK_QUEUE));
  const intervalOf = async (id: (queue: string) => string) =>
    Number((await schedule(id).describe()).spec.intervals?.[0]?.every);

  before(async () => {
    // An hour between sweeps: the test triggers the one it wants.
    platform = await createTestPlatform(await harness(), { env: { RUN_SWEEP_SECONDS: '3600' } });
    tenant = await createTenant(platform.runtime.db);
    await platform.startWorker();
    await platform.startWorker();
  });
  after(() => platform?.close());

  it('has both workers share one sweep and one audit purge Schedule on their queue, at the configured intervals', async () => {
    const sweep = await schedule(workflowIds.runSweep).describe();
    assert.equal(sweep.action.type, 'startWorkflow');
    assert.equal(sweep.action.workflowType, 'runSweepWorkflow');
    assert.equal(sweep.action.taskQueue, platform.config.TEMPORAL_TASK_QUEUE);
    assert.equal(await intervalOf(workflowIds.runSweep), 3_600_000);
    const purge = await schedule(workflowIds.auditPurge).describe();
    assert.equal(purge.action.type === 'startWorkflow' && purge.action.workflowType, 'auditPurgeWorkflow');
    assert.equal(await intervalOf(workflowIds.auditPurge), 3_600_000);
  });

  it('sets the interval of the Schedule already there when a worker starts with another RUN_SWEEP_SECONDS', async () => {
    const client = platform.runtime.temporal.client;
    await ensureMaintenanceSchedules(client, { ...platform.config, RUN_SWEEP_SECONDS: 1800 });
    assert.equal(await intervalOf(workflowIds.runSweep), 1_800_000);
    await ensureMaintenanceSchedules(client, platform.config);
    assert.equal(await intervalOf(workflowIds.runSweep), 3_600_000);
  });

  it('ends, on a scheduled sweep, a flow run whose workflow never existed', async () => {
    const db = platform.runtime.db;
    const flow = await insertFlow(db, tenant.workspaceId, `flow-${Date.now()}`, []);
    const run = await insertFlowRun(db, tenant.workspaceId, flow.id, {});
    // Older than the grace the api has between writing a row and starting its workflow.
    await sql`UPDATE flow_runs SET status = 'running', created_at = now() - interval '10 minutes'
      WHERE id = ${run.id}`.execute(db);
    await schedule(workflowIds.runSweep).trigger();
    await waitFor(
      'the scheduled sweep to end the run',
      async () => (await findFlowRun(db, tenant.workspaceId, run.id))?.status !== 'running',
      60_000,
    );
    const ended = await findFlowRun(db, tenant.workspaceId, run.id);
    assert.equal(ended?.status, 'failed');
    assert.equal(ended?.error, 'the run has no workflow in Temporal');
  });
});
