import { sql, type Kysely } from 'kysely';

/**
 * A run may score each case `repeats` times (1–10) and pass a case that passed in at least `min_repeat_pass` of them
 * (null: every repeat). A case result of such a run keeps each repeat's outcome and the case's flip rate; a run of one
 * repeat leaves both null.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eval_runs')
    .addColumn('repeats', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(1)
        .check(sql`repeats BETWEEN 1 AND 10`),
    )
    .addColumn('min_repeat_pass', 'integer', (c) => c.check(sql`min_repeat_pass BETWEEN 1 AND repeats`))
    .execute();
  await db.schema
    .alterTable('case_results')
    .addColumn('repeats', 'jsonb')
    .addColumn('flip_rate', 'double precision')
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('case_results').dropColumn('repeats').dropColumn('flip_rate').execute();
  await db.schema.alterTable('eval_runs').dropColumn('repeats').dropColumn('min_repeat_pass').execute();
}
