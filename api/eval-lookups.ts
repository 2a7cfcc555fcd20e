import { isUuid } from '../db/column-values';
import { findConversation } from '../db/conversation.repository';
import type { Db } from '../db/database';
import { findEvalCase } from '../db/eval-case.repository';
import { findEvalRun } from '../db/eval-run.repository';
import { findEvalSet } from '../db/eval-set.repository';
import type { Agent } from '../db/tables/agent.table';
import type { Conversation } from '../db/tables/conversation.table';
import type { EvalRun } from '../db/tables/eval-run.table';
import type { EvalCase, EvalSet } from '../db/tables/eval-set.table';
import { notFound } from './http-error';
import { requireAgent } from './lookups';

/** The agent's eval set by id or name, or 404. */
export async function requireEvalSet(db: Db, agent: Agent, idOrName: string): Promise<EvalSet> {
  const set = await findEvalSet(db, agent.id, idOrName);
  if (!set) throw notFound('eval set');
  return set;
}

/** The eval set of the caller's agent, both by id or name from the path (`:agent`, `:set`), or 404. */
export async function requireAgentEvalSet(
  db: Db,
  workspaceId: string,
  params: Record<string, string>,
): Promise<EvalSet> {
  return requireEvalSet(db, await requireAgent(db, workspaceId, params.agent), params.set);
}

/** A case (`:case`) of the caller's agent's eval set, or 404. */
export async function requireAgentEvalCase(
  db: Db,
  workspaceId: string,
  params: Record<string, string>,
): Promise<EvalCase> {
  return requireEvalCase(db, await requireAgentEvalSet(db, workspaceId, params), params.case);
}

/** A case of the set by id, or 404. */
export async function requireEvalCase(db: Db, set: EvalSet, id: string): Promise<EvalCase> {
  const found = isUuid(id) ? await findEvalCase(db, set.id, id) : undefined;
  if (!found) throw notFound('eval case');
  return found;
}

/** A conversation (the spec's run) of the agent by id, or 404. */
export async function requireConversation(db: Db, agent: Agent, id: string): Promise<Conversation> {
  const found = isUuid(id) ? await findConversation(db, agent.id, id) : undefined;
  if (!found) throw notFound('run');
  return found;
}

/** An eval run (`:evalRun`) of the caller's agent (`:agent`), or 404. */
export async function requireAgentEvalRun(
  db: Db,
  workspaceId: string,
  params: Record<string, string>,
): Promise<EvalRun> {
  const agent = await requireAgent(db, workspaceId, params.agent);
  const found = isUuid(params.evalRun) ? await findEvalRun(db, agent.id, params.evalRun) : undefined;
  if (!found) throw notFound('eval run');
  return found;
}
