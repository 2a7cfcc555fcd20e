import { findPublishedVersion } from '../db/agent.repository';
import type { Db } from '../db/database';
import type { Agent } from '../db/tables/agent.table';
import { agentRunnability, type AgentNotRunnableReason } from '../domain/agent/agent-runnability';
import { HttpError, type HttpErrorCode } from './http-error';

const NOT_RUNNABLE_CODE: Readonly<Record<AgentNotRunnableReason, HttpErrorCode>> = {
  not_published: 'agent_not_published',
  model_unresolvable: 'agent_model_unresolvable',
  settings_invalid: 'agent_settings_invalid',
};

/** 409: the agent cannot run (production or live evaluation) until it is published with a usable model and settings. */
export function agentNotRunnable(verdict: { reason: AgentNotRunnableReason; message: string }): HttpError {
  return new HttpError(409, NOT_RUNNABLE_CODE[verdict.reason], verdict.message);
}

/** The agent's published version can run (live evaluation, production), else the 409 saying why. */
export async function requireRunnableAgent(db: Db, agent: Agent): Promise<void> {
  const verdict = agentRunnability(await findPublishedVersion(db, agent));
  if (!verdict.runnable) throw agentNotRunnable(verdict);
}
