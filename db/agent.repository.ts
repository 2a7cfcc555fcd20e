import { sql } from 'kysely';
import { isUuid } from './column-values';
import type { Db } from './database';
import { BY_NAME, keysetPage, type Page, type PageParams } from './keyset-page';
import type { Agent, AgentVersion, GatewayCapture } from './tables/agent.table';

export interface AgentInput {
  name: string;
  model: string;
  instructions: string;
  settings?: Record<string, unknown>;
  gateway_capture?: GatewayCapture;
}

/** Inserts an agent. */
export async function insertAgent(db: Db, workspaceId: string, input: AgentInput): Promise<Agent> {
  return db
    .insertInto('agents')
    .values({
      workspace_id: workspaceId,
      name: input.name,
      model: input.model,
      instructions: input.instructions,
      settings: JSON.stringify(input.settings ?? {}),
      published_version: null,
      gateway_capture: input.gateway_capture,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Finds an agent of a workspace by id or by name. */
export async function findAgent(db: Db, workspaceId: string, idOrName: string): Promise<Agent | undefined> {
  return db
    .selectFrom('agents')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      isUuid(idOrName) ? eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]) : eb('name', '=', idOrName),
    )
    .executeTakeFirst();
}

/** Lists a workspace's agents by name. */
export async function listAgents(db: Db, workspaceId: string, page: PageParams): Promise<Page<Agent>> {
  const query = db.selectFrom('agents').selectAll().where('workspace_id', '=', workspaceId);
  return keysetPage(query, BY_NAME, page);
}

/** Updates the given fields of an agent. */
export async function updateAgent(db: Db, agentId: string, patch: Partial<AgentInput>): Promise<Agent> {
  const { settings, ...rest } = patch;
  return db
    .updateTable('agents')
    .set({ ...rest, ...(settings ? { settings: JSON.stringify(settings) } : {}), updated_at: new Date() })
    .where('id', '=', agentId)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Deletes an agent (its versions and dependants cascade). */
export async function deleteAgent(db: Db, agentId: string): Promise<void> {
  await db.deleteFrom('agents').where('id', '=', agentId).execute();
}

/** Snapshots the agent's current definition as its next published version. */
export async function publishAgent(db: Db, agentId: string): Promise<AgentVersion> {
  return db.transaction().execute(async (trx) => {
    const agent = await trx
      .selectFrom('agents')
      .selectAll()
      .where('id', '=', agentId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const version = (agent.published_version ?? 0) + 1;
    const row = await trx
      .insertInto('agent_versions')
      .values({
        agent_id: agentId,
        version,
        model: agent.model,
        instructions: agent.instructions,
        settings: JSON.stringify(agent.settings),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await trx
      .updateTable('agents')
      .set({ published_version: version, updated_at: sql<Date>`now()` })
      .where('id', '=', agentId)
      .execute();
    return row;
  });
}

/** The published version an agent runs on, if any. */
export async function findPublishedVersion(db: Db, agent: Agent): Promise<AgentVersion | undefined> {
  if (agent.published_version === null) return undefined;
  return findAgentVersion(db, agent.id, agent.published_version);
}

/** The model a run of the agent judges against: its published version's, else (never published) its draft's. */
export async function judgedModelOf(db: Db, agent: Agent): Promise<string> {
  return (await findPublishedVersion(db, agent))?.model ?? agent.model;
}

/** One version of an agent, published or superseded (a live eval run keeps running the version it pinned). */
export async function findAgentVersion(db: Db, agentId: string, version: number): Promise<AgentVersion | undefined> {
  return db
    .selectFrom('agent_versions')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('version', '=', version)
    .executeTakeFirst();
}
