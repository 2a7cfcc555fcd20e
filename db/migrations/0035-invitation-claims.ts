import { sql, type Kysely } from 'kysely';

/**
 * Invitation claims: adding a person who already exists hands the inviter a one-time code, never a token; the person
 * redeems it with a token of their own. Only the code's hash is kept; one claim per person and workspace (a new one
 * replaces it); single use; it expires.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invitation_claims')
    .addColumn('workspace_id', 'uuid', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'uuid', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('claimed_at', 'timestamptz')
    .addPrimaryKeyConstraint('invitation_claims_pkey', ['workspace_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invitation_claims').execute();
}
