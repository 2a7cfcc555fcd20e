import crypto from 'node:crypto';
import type { Db } from './database';
import { NEWEST_FIRST, keysetPage, type Page, type PageParams } from './keyset-page';
import { jsonOrNull } from './column-values';
import type {
  Conversation,
  ConversationMessage,
  ConversationSimulation,
  ConversationSource,
  RecordedToolCall,
} from './tables/conversation.table';

/** What a conversation is recorded from. */
export interface ConversationInput {
  session_input: Record<string, unknown>;
  messages: ConversationMessage[];
  tool_calls: RecordedToolCall[];
  final_response: string;
  /** A conversation of many turns (the columns above then sum them up); absent or null for one turn. */
  turns?: Conversation['turns'];
  guardrail_events: Array<{ guardrail: string; stage?: string | null; detail?: unknown }>;
  model: string | null;
  token_usage: Record<string, number> | null;
  source: ConversationSource;
  /** Set for runs of the agent runtime. */
  latency_ms?: number | null;
  agent_version?: number | null;
  stop_reason?: string | null;
  /** A sandbox run with tool mocks: what it reports of them. */
  tool_mocks?: Conversation['tool_mocks'];
  /** Set when a simulated user played the conversation. */
  simulation?: ConversationSimulation | null;
}

function toColumns(agent: { id: string; workspace_id: string }, input: ConversationInput) {
  return {
    workspace_id: agent.workspace_id,
    agent_id: agent.id,
    session_input: JSON.stringify(input.session_input),
    messages: JSON.stringify(input.messages),
    tool_calls: JSON.stringify(input.tool_calls),
    final_response: input.final_response,
    turns: jsonOrNull(input.turns ?? null),
    guardrail_events: JSON.stringify(input.guardrail_events),
    model: input.model,
    token_usage: jsonOrNull(input.token_usage),
    source: input.source,
    latency_ms: input.latency_ms ?? null,
    agent_version: input.agent_version ?? null,
    stop_reason: input.stop_reason ?? null,
    tool_mocks: jsonOrNull(input.tool_mocks ?? null),
    simulation: jsonOrNull(input.simulation ?? null),
  };
}

/** Records a conversation of an agent. */
export async function insertConversation(
  db: Db,
  agent: { id: string; workspace_id: string },
  input: ConversationInput,
): Promise<Conversation> {
  return db.insertInto('conversations').values(toColumns(agent, input)).returningAll().executeTakeFirstOrThrow();
}

/** Records many conversations of an agent in one statement (bulk seeding); the answer's order is not promised. */
export async function insertConversations(
  db: Db,
  agent: { id: string; workspace_id: string },
  inputs: readonly ConversationInput[],
): Promise<Conversation[]> {
  if (!inputs.length) return [];
  return db
    .insertInto('conversations')
    .values(inputs.map((input) => toColumns(agent, input)))
    .returningAll()
    .execute();
}

// Rows per INSERT of a batch: 14 parameters a row stays far below Postgres's 65,535 parameters a statement.
const BATCH_ROWS = 1_000;

/**
 * Records a batch of conversations of an agent in one transaction (all or none) and answers their ids in input order.
 * Ids are chosen here, so the order of the database's answer does not matter.
 */
export async function insertConversationBatch(
  db: Db,
  agent: { id: string; workspace_id: string },
  inputs: readonly ConversationInput[],
): Promise<string[]> {
  const rows = inputs.map((input) => ({ id: crypto.randomUUID(), ...toColumns(agent, input) }));
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < rows.length; i += BATCH_ROWS)
      await trx
        .insertInto('conversations')
        .values(rows.slice(i, i + BATCH_ROWS))
        .execute();
  });
  return rows.map((row) => row.id);
}

/** An agent's conversations, newest first; only those of one source when given. */
export async function listConversations(
  db: Db,
  agentId: string,
  page: PageParams,
  source?: ConversationSource,
): Promise<Page<Conversation>> {
  let query = db.selectFrom('conversations').selectAll().where('agent_id', '=', agentId);
  if (source) query = query.where('source', '=', source);
  return keysetPage(query, NEWEST_FIRST, page);
}

/** One conversation of an agent. */
export async function findConversation(db: Db, agentId: string, id: string): Promise<Conversation | undefined> {
  return db
    .selectFrom('conversations')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The agent's conversations with the given ids, by id (one query). */
export async function findConversations(
  db: Db,
  agentId: string,
  ids: readonly string[],
): Promise<Map<string, Conversation>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('conversations')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('id', 'in', [...ids])
    .execute();
  return new Map(rows.map((row) => [row.id, row]));
}

/** Which of `ids` are conversations of the agent. */
export async function existingConversationIds(db: Db, agentId: string, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('conversations')
    .select('id')
    .where('agent_id', '=', agentId)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((row) => row.id));
}
