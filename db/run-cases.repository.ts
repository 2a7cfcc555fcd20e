import { sql, type RawBuilder } from 'kysely';
import type { Db } from './database';
import { OLDEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import type { EvalRun } from './tables/eval-run.table';
import type { EvalCase } from './tables/eval-set.table';
import type { JudgedCaseTally } from '../domain/scoring/judge-estimate';

/**
 * The cases a run scores: those of its set that existed when the run was created; for a retry (`retryOf`), only
 * those of them that ended `error` in the run it retries (an ended run's results never change).
 */
export interface RunCaseScope {
  evalSetId: string;
  asOf: Date;
  retryOf: string | null;
}

/** The scope of a run's cases, read from its row. */
export function runCaseScope(run: Pick<EvalRun, 'eval_set_id' | 'created_at' | 'retry_of'>): RunCaseScope {
  return { evalSetId: run.eval_set_id, asOf: run.created_at, retryOf: run.retry_of };
}

function inScope(db: Db, scope: RunCaseScope) {
  const { retryOf } = scope;
  const query = db
    .selectFrom('eval_cases')
    .where('eval_set_id', '=', scope.evalSetId)
    .where('created_at', '<=', scope.asOf);
  if (retryOf === null) return query;
  return query.where('id', 'in', (eb) =>
    eb.selectFrom('case_results').select('case_id').where('run_id', '=', retryOf).where('status', '=', 'error'),
  );
}

/** How many cases a run scores. */
export async function countRunCases(db: Db, scope: RunCaseScope): Promise<number> {
  const row = await inScope(db, scope)
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Which conversation each case of an offline run would be scored against: an explicit selection, else its source. */
export interface OfflineSelection {
  agentId: string;
  explicit: Readonly<Record<string, string>> | null;
}

// A case that is a conversation scenario only: scored with task_success and persona_adherence.
const SCENARIO = sql<boolean>`(turns IS NULL AND conversation_scenario IS NOT NULL)`;

const judgedTurn = (what: string, where: string): RawBuilder<unknown> =>
  sql`(SELECT coalesce(sum(${sql.raw(what)}), 0) FROM jsonb_array_elements(turns) AS t WHERE ${sql.raw(where)})`;
const EXPECTS_RESPONSE = `coalesce(t->>'expected_response', '') ~ '\\S'`;
const HAS_RUBRICS = `jsonb_typeof(t->'rubrics') = 'array' AND jsonb_array_length(t->'rubrics') > 0`;

// Per case of turns: its turns with an expected response and their characters, with rubrics and theirs, and rubrics.
const turnSums = {
  matches: judgedTurn('1', EXPECTS_RESPONSE),
  matchChars: judgedTurn(`length(t->>'user_message') + 2 * length(t->>'expected_response')`, EXPECTS_RESPONSE),
  rubricAsks: judgedTurn('1', HAS_RUBRICS),
  rubricChars: judgedTurn(
    `length(t->>'user_message') + (SELECT coalesce(sum(length(r)), 0) FROM jsonb_array_elements_text(t->'rubrics') AS r)`,
    HAS_RUBRICS,
  ),
  rubrics: judgedTurn(`jsonb_array_length(t->'rubrics')`, HAS_RUBRICS),
};

/**
 * The run's cases as the dry run's estimate reads them, in one aggregate: how many, and per judged criterion the
 * cases it applies to and the characters the judge reads (an expected response counts twice: the agent's answer is
 * taken to be as long). Blank expected responses and empty rubric lists do not count, as in scoring; offline
 * (`selection`), neither does a case without a conversation of the agent to score (it ends `error`, unjudged). A case
 * of turns counts each judged turn (its message, expected response and rubrics) and its case-level rubrics once.
 */
export async function tallyJudgedCases(
  db: Db,
  scope: RunCaseScope,
  selection: OfflineSelection | null,
): Promise<JudgedCaseTally> {
  const message = sql<number>`coalesce(length(session_input->>'message'), 0)`;
  const conversation = selection?.explicit
    ? sql`coalesce((${JSON.stringify(selection.explicit)}::jsonb ->> eval_cases.id::text)::uuid, source_run_id)`
    : sql`source_run_id`;
  const scorable = selection
    ? sql<boolean>`EXISTS (SELECT 1 FROM conversations AS v WHERE v.id = ${conversation} AND v.agent_id = ${selection.agentId}::uuid)`
    : sql<boolean>`true`;
  const matched = sql<boolean>`coalesce(expected_final_response ~ '\\S', false)`;
  const rubricCount = sql<number>`jsonb_array_length(coalesce(rubrics, '[]'::jsonb))`;
  const rubricChars = sql<number>`(SELECT coalesce(sum(length(r)), 0) FROM jsonb_array_elements_text(coalesce(rubrics, '[]'::jsonb)) AS r)`;
  // A case of turns: its turns' judged asks; a one-turn case (turns null): its columns, as before turns existed.
  const oneTurnOr = (columns: RawBuilder<unknown>, ofTurns: RawBuilder<unknown>) =>
    sql`coalesce(sum(CASE WHEN turns IS NULL THEN ${columns} ELSE ${ofTurns} END) FILTER (WHERE ${scorable}), 0)`;
  const caseRubrics = (value: RawBuilder<unknown>) =>
    sql`coalesce(sum(CASE WHEN ${rubricCount} > 0 AND NOT ${SCENARIO} THEN ${value} ELSE 0 END) FILTER (WHERE ${scorable}), 0)`;
  // A scenario case: its two judged asks read its starting prompt, plan and rubrics (counted apart from rubrics).
  const scenarios = (value: RawBuilder<unknown>) =>
    sql`coalesce(sum(CASE WHEN ${SCENARIO} THEN ${value} ELSE 0 END) FILTER (WHERE ${scorable}), 0)`;
  const scenarioText = sql<number>`coalesce(length(conversation_scenario->>'starting_prompt'), 0) + coalesce(length(conversation_scenario->>'conversation_plan'), 0)`;
  const row = await inScope(db, scope)
    .select([
      sql<string>`count(*)`.as('cases'),
      sql<string>`${oneTurnOr(sql`${matched}::int`, turnSums.matches)}`.as('match_cases'),
      sql<string>`${oneTurnOr(sql`CASE WHEN ${matched} THEN ${message} + 2 * length(expected_final_response) ELSE 0 END`, turnSums.matchChars)}`.as(
        'match_chars',
      ),
      sql<string>`${caseRubrics(sql`1`)} + ${oneTurnOr(sql`0`, turnSums.rubricAsks)}`.as('rubric_cases'),
      sql<string>`${caseRubrics(sql`${message} + ${rubricChars}`)} + ${oneTurnOr(sql`0`, turnSums.rubricChars)}`.as(
        'rubric_chars',
      ),
      sql<string>`${caseRubrics(rubricCount)} + ${oneTurnOr(sql`0`, turnSums.rubrics)}`.as('rubrics'),
      sql<string>`${scenarios(sql`1`)}`.as('scenario_cases'),
      sql<string>`${scenarios(sql`${scenarioText} + ${rubricChars}`)}`.as('scenario_chars'),
      sql<string>`${scenarios(rubricCount)}`.as('scenario_rubrics'),
    ])
    .executeTakeFirstOrThrow();
  return {
    cases: Number(row.cases),
    match_cases: Number(row.match_cases),
    match_chars: Number(row.match_chars),
    rubric_cases: Number(row.rubric_cases),
    rubric_chars: Number(row.rubric_chars),
    rubrics: Number(row.rubrics),
    scenario_cases: Number(row.scenario_cases),
    scenario_chars: Number(row.scenario_chars),
    scenario_rubrics: Number(row.scenario_rubrics),
  };
}

/** True when some case of the run needs the judge (an expected final response, rubrics, or a scenario). */
export async function someRunCaseNeedsJudge(db: Db, scope: RunCaseScope): Promise<boolean> {
  const row = await inScope(db, scope)
    .select('id')
    .where((eb) =>
      eb.or([
        eb('expected_final_response', 'is not', null),
        sql<boolean>`jsonb_array_length(coalesce(rubrics, '[]'::jsonb)) > 0`,
        // A conversation scenario: task_success and persona_adherence are judged (live, its simulated user asks too).
        SCENARIO,
        sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements(coalesce(turns, '[]'::jsonb)) AS t
          WHERE coalesce(t->>'expected_response', '') ~ '\\S'
            OR (jsonb_typeof(t->'rubrics') = 'array' AND jsonb_array_length(t->'rubrics') > 0))`,
      ]),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The next page of a run's case ids after `after`, in id order (a keyset page: stable while cases change). */
export async function runCaseIdPage(
  db: Db,
  scope: RunCaseScope,
  after: string | null,
  limit: number,
): Promise<string[]> {
  let query = inScope(db, scope).select('id').orderBy('id').limit(limit);
  if (after !== null) query = query.where('id', '>', after);
  return (await query.execute()).map((row) => row.id);
}

/** The cases a run scores, in creation order (what the builder shows as waiting until their results arrive). */
export async function listRunCases(db: Db, scope: RunCaseScope, page: PageParams): Promise<Page<EvalCase>> {
  return keysetPage(inScope(db, scope).selectAll(), OLDEST_FIRST, page);
}
