import { findAgent } from '../db/agent.repository';
import type { Db } from '../db/database';
import type { Agent } from '../db/tables/agent.table';
import { notFound } from './http-error';

/** The caller's agent by id or name, or 404 (also for another workspace's agent). */
export async function requireAgent(db: Db, workspaceId: string, idOrName: string): Promise<Agent> {
  const agent = await findAgent(db, workspaceId, idOrName);
  if (!agent) throw notFound('agent');
  return agent;
}
