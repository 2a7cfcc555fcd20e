import { publishedAgent } from '../test/helpers/agent-api';
import type { BatchTimings } from '../domain/eval/eval-batches';
import { progressQuery } from '../workflows/eval-run-progress';
import { evalApi } from '../test/helpers/eval-api';
import { seedCases } from '../test/helpers/eval-seed';
import type { Harness } from '../test/helpers/harness';
import { createTestPlatform, type TestPlatform } from '../test/helpers/platform';
import { assertNothingLost, tallyRun, type RunTally } from '../test/helpers/run-tally';
import { createTenant, type Tenant } from '../test/helpers/tenants';

/** The judge's latency in every benchmark: the ideal wall is judge calls × this ÷ concurrency. */
export const JUDGE_DELAY_MS = 200;

/** A seeded set and the agent it belongs to, as the bench triggers it. */
export interface Seeded {
  tenant: Tenant;
  agent: string;
  set: string;
  cases: number;
}

/** A finished run: its id, wall (trigger to `completed`) and final row. */
export interface Finished {
  runId: string;
  wallMs: number;
  run: any;
}

/**
 * A platform whose runs go `concurrency` cases wide, with the workspace cap raised to match (the cap must not be what
 * is measured) and OpenBao holding the judge's key, as in production. `EVAL_CONCURRENCY` is read when the api
 * starts, hence a platform per concurrency.
 */
export async function benchPlatform(h: Harness, concurrency: number): Promise<TestPlatform> {
  return createTestPlatform(h, {
    vault: 'openbao',
    env: {
      EGRESS_ALLOWLIST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      EVAL_CONCURRENCY: String(concurrency),
      WORKSPACE_EVAL_CONCURRENCY: String(concurrency),
    },
  });
}

/**
 * A fresh workspace connected to the scripted judge, an agent and a set (judge_samples 1) of `cases` seeded cases of
 * `turns` turns each.
 */
export async function seedBenchSet(
  platform: TestPlatform,
  judgeUrl: string,
  name: string,
  cases: number,
  judged: boolean,
  turns = 1,
): Promise<Seeded> {
  const tenant = await createTenant(platform.runtime.db, 'admin');
  const api = evalApi(platform.app, tenant);
  await api.connect('openai', 'sk-bench', judgeUrl);
  const agent = { ...(await api.agent(name, 'gpt-4o')), workspace_id: tenant.workspaceId };
  const set = await api.evalSet(name, { name: 'bench', judge_samples: 1 });
  await seedCases(platform.runtime.db, agent, set.id, cases, judged, turns);
  return { tenant, agent: name, set: set.id, cases };
}

/**
 * A fresh workspace connected to the scripted server, a published agent (live runs need one) and a set
 * (judge_samples 1) of `cases` cases written through the API, case `i` being `caseOf(i)`.
 */
export async function seedPublishedSet(
  platform: TestPlatform,
  judgeUrl: string,
  name: string,
  cases: number,
  caseOf: (i: number) => Record<string, unknown>,
): Promise<Seeded> {
  const tenant = await createTenant(platform.runtime.db, 'admin');
  const api = evalApi(platform.app, tenant);
  await api.connect('openai', 'sk-bench', judgeUrl);
  await publishedAgent(api, name, 'gpt-4o');
  const set = await api.evalSet(name, { name: 'bench', judge_samples: 1 });
  for (let i = 0; i < cases; i++) await api.addCase(name, set.id, caseOf(i));
  return { tenant, agent: name, set: set.id, cases };
}

/** Triggers a run of the set (`body`: the trigger's, e.g. its mode) and waits for it to complete (throws if it ends otherwise). */
export async function runToEnd(
  platform: TestPlatform,
  seeded: Seeded,
  body: Record<string, unknown> = {},
): Promise<Finished> {
  const api = evalApi(platform.app, seeded.tenant);
  const run = await api.trigger(seeded.agent, seeded.set, body);
  const done = await api.waitForEnd(seeded.agent, run.id, 3_600_000);
  if (done.status !== 'completed') throw new Error(`run ${run.id} ${done.status}: ${done.error}`);
  // Trigger to completed by the run's own timestamps (one clock, Postgres's), not by when the poll noticed.
  const wallMs = Date.parse(done.completed_at) - Date.parse(run.created_at);
  return { runId: run.id, wallMs, run: done };
}

/** Prints a run's wall against its ideal: `calls` calls of `JUDGE_DELAY_MS` each, `concurrency` at a time. */
export function printWallIdeal(finished: Finished, calls: number, concurrency: number): void {
  const idealMs = (calls * JUDGE_DELAY_MS) / concurrency;
  console.log(
    `  wall ${(finished.wallMs / 1000).toFixed(1)} s, ideal ${(idealMs / 1000).toFixed(1)} s, wall/ideal = ${(finished.wallMs / idealMs).toFixed(2)}`,
  );
}

/** Counts what the run stored, prints the "nothing lost" line, and throws unless there is one result per case. */
export async function checkNothingLost(platform: TestPlatform, seeded: Seeded, runId: string): Promise<RunTally> {
  const tally = await tallyRun(platform.runtime.db, runId);
  console.log(`  ${assertNothingLost(tally, seeded.cases)}`);
  return tally;
}

/** Executions of the run's workflow (continue-as-new) and the longest history among them. */
export async function longestHistory(
  platform: TestPlatform,
  runId: string,
): Promise<{ executions: number; maxEvents: number }> {
  let executions = 0;
  let maxEvents = 0;
  for await (const execution of platform.runtime.temporal.client.workflow.list({
    query: `WorkflowId = "eval-run:${runId}"`,
  })) {
    executions += 1;
    // Described one by one: the list comes from visibility, which may not have the final length yet.
    const described = await platform.runtime.temporal.client.workflow
      .getHandle(execution.workflowId, execution.runId)
      .describe();
    maxEvents = Math.max(maxEvents, described.historyLength);
  }
  return { executions, maxEvents };
}

const cell = (value: number) => value.toFixed(2).padStart(15);

/**
 * Prints where a case's time went, per case: load, score (judge), write (the workflow's `progress` query, summed over
 * batches), and the rest of its slot time (wall × concurrency ÷ cases), which is orchestration.
 */
export async function printBreakdown(
  platform: TestPlatform,
  finished: Finished,
  concurrency: number,
  cases: number,
): Promise<void> {
  let timings: BatchTimings;
  try {
    const handle = platform.runtime.temporal.client.workflow.getHandle(`eval-run:${finished.runId}`);
    timings = (await handle.query(progressQuery)).timings;
  } catch (error) {
    console.log(`  breakdown unavailable (progress query failed: ${(error as Error).name})`);
    return;
  }
  const slotMs = (finished.wallMs * concurrency) / cases;
  const [load, score, write] = [timings.loadMs, timings.scoreMs, timings.writeMs].map((ms) => ms / cases);
  console.log(`  time per case, ms (slot time = wall × ${concurrency} ÷ ${cases} = ${slotMs.toFixed(2)}):`);
  console.log(`  ${['load', 'score (judge)', 'write', 'orchestration'].map((h) => h.padStart(15)).join('')}`);
  console.log(`  ${[load, score, write, slotMs - load - score - write].map(cell).join('')}`);
}
