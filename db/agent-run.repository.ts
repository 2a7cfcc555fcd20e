import { type Transaction, type Updateable } from 'kysely';
import type { Database, Db } from './database';
import type { AgentRun, AgentRunTable } from './tables/agent-run.table';

/** What an agent run starts with. */
export type AgentRunInput = Pick<
  AgentRun,
  | 'key'
  | 'workspace_id'
  | 'agent_id'
  | 'agent_version'
  | 'model'
  | 'provider'
  | 'mode'
  | 'eval_run_id'
  | 'eval_case_id'
  | 'session_input'
  | 'settings'
  | 'tools'
  | 'replay_calls'
  | 'messages'
  | 'guardrail_events'
  | 'final_response'
  | 'turns'
> &
  Partial<Pick<AgentRun, 'simulation'>>;

/** The fields activities change as a run advances. */
export type AgentRunState = Pick<
  AgentRun,
  | 'messages'
  | 'steps'
  | 'tool_calls'
  | 'started_calls'
  | 'replay_used'
  | 'guardrail_events'
  | 'token_usage'
  | 'final_response'
  | 'turns'
  | 'simulation'
>;

const STATE_JSON = [
  'messages',
  'steps',
  'tool_calls',
  'started_calls',
  'replay_used',
  'guardrail_events',
  'token_usage',
  'turns',
  'simulation',
] as const;

function stateColumns(patch: Partial<AgentRunState>): Updateable<AgentRunTable> {
  const out: Updateable<AgentRunTable> = {};
  if (patch.final_response !== undefined) out.final_response = patch.final_response;
  for (const key of STATE_JSON) if (patch[key] !== undefined) out[key] = JSON.stringify(patch[key]);
  return out;
}

/** Creates the run of a workflow once: a retried call with the same key gets the row the first one wrote. */
export async function createAgentRun(db: Db, input: AgentRunInput): Promise<AgentRun> {
  await db
    .insertInto('agent_runs')
    .values({
      ...input,
      session_input: JSON.stringify(input.session_input),
      settings: JSON.stringify(input.settings),
      tools: JSON.stringify(input.tools),
      replay_calls: JSON.stringify(input.replay_calls),
      replay_used: '[]',
      messages: JSON.stringify(input.messages),
      steps: '[]',
      tool_calls: '[]',
      started_calls: '[]',
      guardrail_events: JSON.stringify(input.guardrail_events),
      turns: JSON.stringify(input.turns),
      simulation: input.simulation ? JSON.stringify(input.simulation) : null,
      token_usage: JSON.stringify({ model_calls: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }),
      status: 'running',
    })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return db.selectFrom('agent_runs').selectAll().where('key', '=', input.key).executeTakeFirstOrThrow();
}

/** One run by id. */
export async function findAgentRun(db: Db, id: string): Promise<AgentRun | undefined> {
  return db.selectFrom('agent_runs').selectAll().where('id', '=', id).executeTakeFirst();
}

/** One run by its workflow's key. */
export async function findAgentRunByKey(db: Db, key: string): Promise<AgentRun | undefined> {
  return db.selectFrom('agent_runs').selectAll().where('key', '=', key).executeTakeFirst();
}

/**
 * Changes a run's state under a row lock: `change` sees the current row and returns the fields to write (or none,
 * when a retried activity finds its work already recorded) and the value to answer.
 */
// Every change of a run reads it under a row lock first, so concurrent retries of one activity serialize.
export function lockAgentRun(trx: Transaction<Database>, id: string): Promise<AgentRun> {
  return trx.selectFrom('agent_runs').selectAll().where('id', '=', id).forUpdate().executeTakeFirstOrThrow();
}

export async function updateAgentRun<T>(
  db: Db,
  id: string,
  change: (run: AgentRun) => { patch?: Partial<AgentRunState>; value: T },
): Promise<T> {
  return db.transaction().execute(async (trx) => {
    const run = await lockAgentRun(trx, id);
    const { patch, value } = change(run);
    if (patch && Object.keys(patch).length > 0)
      await trx.updateTable('agent_runs').set(stateColumns(patch)).where('id', '=', id).execute();
    return value;
  });
}
