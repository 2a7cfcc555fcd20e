import type { Db } from '../../db/database';
import { insertConversations } from '../../db/conversation.repository';
import { insertEvalCases } from '../../db/eval-case.repository';

// Rows per statement: well under Postgres's 65,535 bind parameters at the conversations' 13 columns.
const ROWS_PER_INSERT = 500;

/**
 * Seeds `count` cases into a set, each with the imported conversation it is scored against: the trajectory always
 * matches; a judged case also expects the conversation's final response (so a judge that compares says it matches).
 * Multi-row inserts through the repositories, so 10,000 cases take seconds. Answers the case ids.
 */
export async function seedCases(
  db: Db,
  agent: { id: string; workspace_id: string },
  setId: string,
  count: number,
  judged: boolean,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const numbers = Array.from({ length: Math.min(ROWS_PER_INSERT, count - start) }, (_, k) => start + k);
    const conversations = await insertConversations(
      db,
      agent,
      numbers.map((i) => ({
        session_input: { message: `question ${i}` },
        messages: [],
        final_response: `answer ${i}`,
        guardrail_events: [],
        tool_calls: [{ tool_name: 'lookup', tool_args: { id: i } }],
        model: 'gpt-4o',
        token_usage: null,
        source: 'imported' as const,
      })),
    );
    // Paired by content: a multi-row insert does not promise to answer in input order.
    const conversationOf = new Map(conversations.map((c) => [c.final_response, c.id]));
    const cases = await insertEvalCases(
      db,
      setId,
      numbers.map((i) => ({
        name: `case ${i}`,
        session_input: { message: `question ${i}` },
        expected_trajectory: [{ tool_name: 'lookup', tool_args: { id: i } }],
        expected_final_response: judged ? `answer ${i}` : null,
        rubrics: null,
        source_run_id: conversationOf.get(`answer ${i}`) ?? null,
        snapshot: null,
      })),
    );
    ids.push(...cases.map((c) => c.id));
  }
  return ids;
}
