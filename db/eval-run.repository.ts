import { sql } from 'kysely';
import type { Db } from './database';
import { NEWEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import { listResultOutcomes } from './case-result.repository';
import { jsonOrNull } from './column-values';
import type { CriterionKey, MinScores } from '../domain/scoring/criteria';
import { summarizeRun, withFlakyCases, type RunSummary } from '../domain/scoring/run-summary';
import { runPassAtK, withIntervals } from '../domain/scoring/run-intervals';
import type { EvalRun, RunAgent, RunJudge } from './tables/eval-run.table';

/** What a triggered run is created with. */
export interface EvalRunInput {
  mode: 'offline' | 'live';
  run_selection: 'source' | 'explicit';
  conversations: Record<string, string> | null;
  min_scores: MinScores;
  judge_samples: number;
  /** Distinct tags; none when absent. */
  tags?: string[];
  /** The ended run whose `error` cases this one re-scores (and no others). */
  retry_of?: string;
  /** The run neither reads nor writes the judge verdict cache (false when absent). */
  no_cache?: boolean;
  /** Times each case is scored (default 1) and how many of them it must pass (null: all). */
  repeats?: number;
  min_repeat_pass?: number | null;
  /** Approve with evaluation: the quarantined tool the run offers (none when absent). */
  candidate_tool_id?: string;
}

/** The run fields scoring needs, without the (possibly large) explicit conversation map. */
export type ScoringRun = Omit<EvalRun, 'conversations' | 'summary' | 'tags'>;

/** Creates a run in `queued`. */
export async function insertEvalRun(
  db: Db,
  set: { id: string; agent_id: string; workspace_id: string },
  input: EvalRunInput,
): Promise<EvalRun> {
  return db
    .insertInto('eval_runs')
    .values({
      workspace_id: set.workspace_id,
      agent_id: set.agent_id,
      eval_set_id: set.id,
      status: 'queued',
      mode: input.mode,
      run_selection: input.run_selection,
      conversations: jsonOrNull(input.conversations),
      min_scores: JSON.stringify(input.min_scores),
      judge_samples: input.judge_samples,
      repeats: input.repeats ?? 1,
      min_repeat_pass: input.min_repeat_pass ?? null,
      tags: input.tags ?? [],
      judge: null,
      agent: null,
      retry_of: input.retry_of ?? null,
      no_cache: input.no_cache ?? false,
      candidate_tool_id: input.candidate_tool_id ?? null,
      total_cases: null,
      summary: null,
      error: null,
      started_at: null,
      completed_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** One run of an agent. */
export async function findEvalRun(db: Db, agentId: string, id: string): Promise<EvalRun | undefined> {
  return db.selectFrom('eval_runs').selectAll().where('agent_id', '=', agentId).where('id', '=', id).executeTakeFirst();
}

/** A set's runs, newest first; with `tag`, only the runs carrying it. */
export async function listEvalRuns(
  db: Db,
  evalSetId: string,
  page: PageParams,
  filter: { tag?: string } = {},
): Promise<Page<EvalRun>> {
  let query = db.selectFrom('eval_runs').selectAll().where('eval_set_id', '=', evalSetId);
  if (filter.tag !== undefined) query = query.where('tags', '@>', sql<string[]>`array[${filter.tag}]::text[]`);
  return keysetPage(query, NEWEST_FIRST, page);
}

/** The run as scoring sees it. */
export async function findScoringRun(db: Db, id: string): Promise<ScoringRun | undefined> {
  return db
    .selectFrom('eval_runs')
    .select([
      'id',
      'workspace_id',
      'agent_id',
      'eval_set_id',
      'status',
      'mode',
      'run_selection',
      'min_scores',
      'judge_samples',
      'repeats',
      'min_repeat_pass',
      'judge',
      'agent',
      'retry_of',
      'no_cache',
      'candidate_tool_id',
      'total_cases',
      'scored_cases',
      'error',
      'created_at',
      'started_at',
      'completed_at',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** True while the run takes results (queued or running). */
export async function isRunOpen(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('eval_runs')
    .select('id')
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return row !== undefined;
}

/** The conversations an explicit run chose for the given cases, by case id (one query; cases it did not name are absent). */
export async function explicitConversationsFor(
  db: Db,
  runId: string,
  caseIds: readonly string[],
): Promise<Map<string, string>> {
  if (caseIds.length === 0) return new Map();
  const { rows } = await sql<{ case_id: string; conversation_id: string }>`
    SELECT c.key AS case_id, c.value AS conversation_id
    FROM eval_runs, jsonb_each_text(coalesce(conversations, '{}'::jsonb)) AS c
    WHERE id = ${runId} AND c.key = ANY(${[...caseIds]}::text[])`.execute(db);
  return new Map(rows.map((row) => [row.case_id, row.conversation_id]));
}

/** Pins the agent a live run runs on, unless one is pinned already; answers the pin the run keeps. */
export async function pinRunAgent(db: Db, id: string, pin: RunAgent): Promise<RunAgent> {
  const row = await db
    .updateTable('eval_runs')
    .set({ agent: sql<string>`coalesce(agent, ${JSON.stringify(pin)}::jsonb)` })
    .where('id', '=', id)
    .returning('agent')
    .executeTakeFirstOrThrow();
  return row.agent ?? pin;
}

/** Moves a queued (or restarted) run to `running` with its judge and case count. */
export async function markRunRunning(db: Db, id: string, judge: RunJudge | null, totalCases: number): Promise<void> {
  await db
    .updateTable('eval_runs')
    .set({
      status: 'running',
      judge: jsonOrNull(judge),
      total_cases: totalCases,
      started_at: sql<Date>`coalesce(started_at, now())`,
    })
    .where('id', '=', id)
    .where('status', 'in', ['queued', 'running'])
    .execute();
}

/** The summary of the results a run has stored so far (with its flaky cases when it scores several repeats). */
export async function summarizeStoredResults(db: Db, runId: string): Promise<RunSummary> {
  const outcomes = await listResultOutcomes(db, runId);
  const cases = outcomes.map((row) => ({
    status: row.status,
    criteria: Object.entries(row.criteria).map(([criterion, entry]) => ({
      criterion: criterion as CriterionKey,
      score: entry?.score ?? 0,
      applicable: entry?.applicable ?? false,
      unscored: entry?.unscored,
    })),
    case_id: row.case_id,
    name: row.case_name,
    flip_rate: row.flip_rate,
    judge_cache: { hits: row.judge_cache_hits, misses: row.judge_cache_misses },
    cost: row.cost,
  }));
  const summary = withIntervals(summarizeRun(cases), cases, runId);
  const { repeats } = await db
    .selectFrom('eval_runs')
    .select('repeats')
    .where('id', '=', runId)
    .executeTakeFirstOrThrow();
  if (repeats < 2) return summary;
  const statuses = outcomes.map((row) => (row.repeats ?? []).map((repeat) => repeat.status));
  return { ...withFlakyCases(summary, cases), pass_at_k: runPassAtK(statuses, repeats) };
}

/** One run by id alone (the WebSocket relay checks its workspace against the caller's membership). */
export async function findEvalRunById(db: Db, id: string): Promise<EvalRun | undefined> {
  return db.selectFrom('eval_runs').selectAll().where('id', '=', id).executeTakeFirst();
}
