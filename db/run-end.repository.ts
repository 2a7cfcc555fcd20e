import { sql, type Updateable } from 'kysely';
import type { Db } from './database';
import { insertConversation, type ConversationInput } from './conversation.repository';
import { lockAgentRun } from './agent-run.repository';
import { notifyEvalProgress } from './eval-progress';
import { summarizeStoredResults } from './eval-run.repository';
import { countRunCases, runCaseScope } from './run-cases.repository';
import type { AgentRun } from './tables/agent-run.table';
import type { EvalRunTable } from './tables/eval-run.table';
import type { FlowRun } from './tables/flow.table';
import type { ImposedEnd } from '../domain/eval/run-end';
import { withNotScored, type RunSummary } from '../domain/scoring/run-summary';

/**
 * The row writes that end a run (`queued → running → completed | failed | cancelled`), one per kind. Call them through
 * `lib/run-ends.ts`, which also counts the end. `{ stopped }` is an end decided outside the run's workflow (a cancel
 * by the api, the reconciler): it changes only a run that is still unfinished.
 */

/** How an eval run ends: completed with its summary, failed by its workflow, or stopped from outside. */
export type EvalRunEnd =
  { status: 'completed'; summary: RunSummary } | { status: 'failed'; error: string } | { stopped: ImposedEnd };

/** How a flow run ends: as its workflow decided, or stopped from outside. */
export type FlowRunEnd =
  { status: 'completed' | 'failed' | 'cancelled'; error: string | null } | { stopped: ImposedEnd };

/** How an agent run ends: completed with its conversation (recorded once), failed by its workflow, or stopped. */
export type AgentRunEnd =
  | { status: 'completed'; conversation: (run: AgentRun) => ConversationInput }
  | { status: 'failed'; error: string }
  | { stopped: ImposedEnd };

const UNFINISHED = ['queued', 'running'];

// The row is locked first so no case result lands in between, and the end is NOTIFYed in the same transaction.
async function writeEvalRunEnd(
  db: Db,
  id: string,
  status: 'completed' | 'failed' | 'cancelled',
  values: (trx: Db) => Promise<Updateable<EvalRunTable>>,
  unfinishedOnly: boolean,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const current = await trx
      .selectFrom('eval_runs')
      .select(['status', 'workspace_id'])
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!current || (unfinishedOnly && !UNFINISHED.includes(current.status))) return false;
    await trx
      .updateTable('eval_runs')
      .set({ ...(await values(trx)), status, completed_at: new Date() })
      .where('id', '=', id)
      .execute();
    await notifyEvalProgress(trx, { run_id: id, workspace_id: current.workspace_id, type: 'run_status', status });
    return true;
  });
}

// The cases a run scores: the count pinned at preflight, or (stopped before it) the run's scope counted now.
async function runCaseTotal(db: Db, id: string): Promise<number> {
  const run = await db
    .selectFrom('eval_runs')
    .select(['total_cases', 'eval_set_id', 'created_at', 'retry_of'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return run.total_cases ?? countRunCases(db, runCaseScope(run));
}

/**
 * Writes an eval run's end (status, `completed_at`, summary or error) and NOTIFYs it; a stopped run keeps the summary
 * of the results it stored, its unscored cases counted as not scored when cancelled. True when the row changed.
 */
export async function recordEvalRunEnd(db: Db, id: string, end: EvalRunEnd): Promise<boolean> {
  if (!('stopped' in end)) {
    const values =
      end.status === 'completed'
        ? { summary: JSON.stringify(end.summary), total_cases: end.summary.counts.total }
        : { error: end.error };
    return writeEvalRunEnd(db, id, end.status, async () => values, false);
  }
  const { status, error } = end.stopped;
  const values = async (trx: Db): Promise<Updateable<EvalRunTable>> => {
    const summary = await summarizeStoredResults(trx, id);
    const ended = status === 'cancelled' ? withNotScored(summary, await runCaseTotal(trx, id)) : summary;
    return { error, summary: JSON.stringify(ended) };
  };
  return writeEvalRunEnd(db, id, status, values, true);
}

/** Writes a flow run's end; the row as it ended, or undefined when a stopped run had already ended. */
export async function recordFlowRunEnd(db: Db, id: string, end: FlowRunEnd): Promise<FlowRun | undefined> {
  const update = db.updateTable('flow_runs').where('id', '=', id);
  if ('stopped' in end)
    return update
      .set({ ...end.stopped, finished_at: sql<Date>`now()` })
      .where('status', 'in', UNFINISHED)
      .returningAll()
      .executeTakeFirst();
  return update
    .set({ status: end.status, error: end.error, finished_at: sql<Date>`now()` })
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Records the run's conversation once and completes the run; a retry answers the conversation already recorded.
async function completeAgentRun(db: Db, id: string, conversation: (run: AgentRun) => ConversationInput) {
  return db.transaction().execute(async (trx) => {
    const run = await lockAgentRun(trx, id);
    if (run.conversation_id) return run.conversation_id;
    const row = await insertConversation(trx, { id: run.agent_id, workspace_id: run.workspace_id }, conversation(run));
    await trx
      .updateTable('agent_runs')
      .set({ status: 'completed', conversation_id: row.id, finished_at: sql<Date>`now()` })
      .where('id', '=', id)
      .execute();
    return row.id;
  });
}

/**
 * Writes an agent run's end: completed with its conversation (answers its id, the one already recorded on a retry),
 * or failed or cancelled while still running (answers null, or undefined when the run had already ended).
 */
export async function recordAgentRunEnd(db: Db, id: string, end: AgentRunEnd): Promise<string | null | undefined> {
  if ('conversation' in end) return completeAgentRun(db, id, end.conversation);
  const row = await db
    .updateTable('agent_runs')
    .set({ ...('stopped' in end ? end.stopped : end), finished_at: sql<Date>`now()` })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .returning('id')
    .executeTakeFirst();
  return row ? null : undefined;
}
