import type { Kysely } from 'kysely';

/**
 * The scope an OAuth server asked for with 403 `insufficient_scope`, kept on the server while it waits for a person
 * to authorize it again (status `authorization_required`); cleared when its status is set afresh. Issue 31.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mcp_servers').addColumn('oauth_step_up_scope', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('mcp_servers').dropColumn('oauth_step_up_scope').execute();
}
