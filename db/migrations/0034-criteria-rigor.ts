import { sql, type Kysely } from 'kysely';

/**
 * Trajectory modes `partial` (args_score credit) and `f1` join the four a case could name; a case may carry
 * `tool_use_rubrics` (judged over its tool calls by `rubric_based_tool_use`); a case result keeps its conversation's
 * efficiency figures (informational). Issue 26.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_cases').addColumn('tool_use_rubrics', 'jsonb').execute();
  await db.schema.alterTable('case_results').addColumn('efficiency', 'jsonb').execute();
  await sql`ALTER TABLE eval_cases DROP CONSTRAINT IF EXISTS eval_cases_trajectory_match_check`.execute(db);
  await sql`ALTER TABLE eval_cases ADD CONSTRAINT eval_cases_trajectory_match_check
    CHECK (trajectory_match in ('exact', 'in_order', 'any_order', 'lcs', 'partial', 'f1'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_cases').dropColumn('tool_use_rubrics').execute();
  await db.schema.alterTable('case_results').dropColumn('efficiency').execute();
  await sql`ALTER TABLE eval_cases DROP CONSTRAINT IF EXISTS eval_cases_trajectory_match_check`.execute(db);
  await sql`ALTER TABLE eval_cases ADD CONSTRAINT eval_cases_trajectory_match_check
    CHECK (trajectory_match in ('exact', 'in_order', 'any_order', 'lcs'))`.execute(db);
}
