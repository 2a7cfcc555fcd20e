import { z } from 'zod';
import type { CaseResultInput } from '../../db/case-result.repository';
import { recordCaseResults } from '../../db/case-result.repository';
import { findCasesByIdOrName } from '../../db/eval-case.repository';
import { PROGRESS_FLUSH_MAX } from '../../db/eval-progress';
import { findEvalRun, insertEvalRun, markRunRunning, summarizeStoredResults } from '../../db/eval-run.repository';
import type { EvalSet } from '../../db/tables/eval-set.table';
import { NOT_EVALUATED_REASON, readAdkResult, type ImportedResult } from '../../domain/eval/adk-results';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { endEvalRun } from '../../lib/run-ends';
import type { Db } from '../../db/database';
import { requireAgentEvalSet } from '../eval-lookups';
import { invalidFields } from '../field-errors';
import { evalRunJson, toEvalRunJson } from '../json/eval-run.json';
import { route, type RouteSpec } from '../route';

/** The path of the ADK result import (its body is read by `adkResultBodies`, up to `adkResultBytes`). */
export const ADK_RESULTS_PATH = '/api/ai-agents/:agent/eval-sets/:set/adk-results';

/** The tag every run imported from ADK carries. */
export const ADK_RESULT_TAG = 'adk-eval';

// Each ADK case by the set's case of the same name; a name the set has not is a 422 naming the ADK field.
async function caseIdsOf(db: Db, setId: string, result: ImportedResult): Promise<Map<string, string>> {
  const names = [...new Set(result.cases.map((c) => c.eval_id))];
  const found = new Map((await findCasesByIdOrName(db, setId, names)).map((c) => [c.name, c.id]));
  const missing = result.cases
    .map((c, i) => ({ field: `eval_case_results[${i}].eval_id`, name: c.eval_id }))
    .filter(({ name }) => !found.has(name));
  if (missing.length)
    throw invalidFields(missing.map(({ field, name }) => ({ field, message: `the set has no case named ${name}` })));
  return found;
}

function caseResults(runId: string, result: ImportedResult, ids: Map<string, string>): CaseResultInput[] {
  return result.cases.map((c) => ({
    run_id: runId,
    case_id: ids.get(c.eval_id) as string,
    case_name: c.eval_id,
    conversation_id: null,
    status: c.status,
    criteria: c.criteria,
    error: null,
    judge_usage: null,
    skip_reason: c.status === 'skipped' ? NOT_EVALUATED_REASON : null,
    scored_by: `adk:${result.eval_set_result_id}`.slice(0, 200),
  }));
}

// The run is created, filled and completed like a triggered one, with ADK's verdicts in place of scoring.
async function importRun(db: Db, set: EvalSet, result: ImportedResult) {
  const ids = await caseIdsOf(db, set.id, result);
  const run = await insertEvalRun(db, set, {
    mode: 'offline',
    run_selection: 'source',
    conversations: null,
    min_scores: resolveMinScores(set.min_scores, result.min_scores),
    judge_samples: set.judge_samples,
    tags: [ADK_RESULT_TAG],
  });
  try {
    await markRunRunning(db, run.id, null, result.cases.length);
    const rows = caseResults(run.id, result, ids);
    for (let at = 0; at < rows.length; at += PROGRESS_FLUSH_MAX)
      await recordCaseResults(db, run.id, rows.slice(at, at + PROGRESS_FLUSH_MAX));
    await endEvalRun(db, run.id, { status: 'completed', summary: await summarizeStoredResults(db, run.id) });
  } catch (error) {
    // No workflow owns this run: one left half-filled is ended here, not left running.
    await endEvalRun(db, run.id, { status: 'failed', error: 'the ADK result could not be stored whole' });
    throw error;
  }
  return findEvalRun(db, set.agent_id, run.id);
}

const imported = z.object({
  run: evalRunJson,
  eval_set_result_id: z.string(),
  unsupported: z.array(z.object({ criterion: z.string(), reason: z.string() })),
});

/** ADK eval results (`*.evalset_result.json`) in: a completed run of the set with ADK's verdicts per case and metric. */
export const adkResultRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: ADK_RESULTS_PATH,
    resource: 'eval-runs',
    summary:
      'Import a Google ADK eval result (*.evalset_result.json, the document or ADK 1.x’s JSON string of it) as a ' +
      "completed run of the set: each case's status is ADK's final_eval_status, each metric with an Assay criterion " +
      'its score, threshold and status; cases matched by eval_id to case names; run tagged adk-eval',
    tag: 'evaluation',
    permission: 'evals:manage',
    status: 201,
    body: z
      .unknown()
      .meta({ description: 'An ADK EvalSetResult, or a JSON string holding one (up to adkResultBytes)' }),
    response: z.object({ data: imported }),
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const result = readAdkResult(body);
      if ('problems' in result) throw invalidFields(result.problems);
      const run = await importRun(deps.db, set, result);
      if (!run) throw new Error('an imported run is there once completed');
      return {
        data: {
          run: toEvalRunJson(run),
          eval_set_result_id: result.eval_set_result_id,
          unsupported: result.unsupported,
        },
      };
    },
  }),
];
