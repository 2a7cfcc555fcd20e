import type { Kysely } from 'kysely';

/**
 * Invitations: a personal token may be scoped to one workspace (an invitation's token, and every token minted with
 * it, which also remembers the token that minted it), and a user made by an invitation is marked as such.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('api_tokens')
    .addColumn('scope_workspace_id', 'uuid', (c) => c.references('workspaces.id').onDelete('cascade'))
    .addColumn('minted_by', 'uuid')
    .execute();
  await db.schema.createIndex('api_tokens_minted_by_idx').on('api_tokens').column('minted_by').execute();
  await db.schema
    .alterTable('users')
    .addColumn('invited', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
