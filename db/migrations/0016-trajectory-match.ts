import { sql, type Kysely } from 'kysely';

/** A case says how its expected trajectory is matched: `exact`, `in_order`, `any_order`, or `lcs` (the old rule). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('eval_cases')
    .addColumn('trajectory_match', 'text', (c) =>
      c
        .notNull()
        .defaultTo('lcs')
        .check(sql`trajectory_match in ('exact', 'in_order', 'any_order', 'lcs')`),
    )
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('eval_cases').dropColumn('trajectory_match').execute();
}
