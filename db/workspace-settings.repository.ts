import type { Db } from './database';

/** The workspace's fixed judge model, or null when none is fixed. */
export async function findJudgeModel(db: Db, workspaceId: string): Promise<string | null> {
  const row = await db
    .selectFrom('workspace_settings')
    .select('judge_model')
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return row?.judge_model ?? null;
}

/** Fixes the workspace's judge model; null removes it. */
export async function saveJudgeModel(db: Db, workspaceId: string, judgeModel: string | null): Promise<void> {
  await db
    .insertInto('workspace_settings')
    .values({ workspace_id: workspaceId, judge_model: judgeModel })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ judge_model: judgeModel, updated_at: new Date() }))
    .execute();
}
