import type { Db } from '../../db/database';
import { insertConversations } from '../../db/conversation.repository';
import { insertEvalCases } from '../../db/eval-case.repository';
import { firstTurnColumns } from '../../domain/eval/case-turns';
import { conversationColumnsOf } from '../../domain/eval/conversation-turns';

// Rows per statement: well under Postgres's 65,535 bind parameters at the conversations' 13 columns.
const ROWS_PER_INSERT = 500;

// Turn t of case i: one lookup call and one answer, as the conversation made them and the case expects them.
const turnOf = (i: number, t: number, turns: number) => {
  const tag = turns === 1 ? `${i}` : `${i}.${t}`;
  return {
    message: `question ${tag}`,
    call: { tool_name: 'lookup', tool_args: turns === 1 ? { id: i } : { id: i, turn: t } },
    answer: `answer ${tag}`,
  };
};

/**
 * Seeds `count` cases into a set, each with the imported conversation it is scored against: the trajectory always
 * matches; a judged case also expects the conversation's final response (so a judge that compares says it matches).
 * With `turns` above 1, each case and conversation has that many turns, each one call and one judged reply.
 * Multi-row inserts through the repositories, so 10,000 cases take seconds. Answers the case ids.
 */
export async function seedCases(
  db: Db,
  agent: { id: string; workspace_id: string },
  setId: string,
  count: number,
  judged: boolean,
  turns = 1,
): Promise<string[]> {
  const ids: string[] = [];
  for (let start = 0; start < count; start += ROWS_PER_INSERT) {
    const numbers = Array.from({ length: Math.min(ROWS_PER_INSERT, count - start) }, (_, k) => start + k);
    const conversations = await insertConversations(
      db,
      agent,
      numbers.map((i) => {
        const made = Array.from({ length: turns }, (_, t) => turnOf(i, t, turns)).map((turn) => ({
          user_message: turn.message,
          tool_calls: [turn.call],
          final_response: turn.answer,
        }));
        return {
          session_input: { message: made[0].user_message },
          ...conversationColumnsOf(made),
          messages: [],
          turns: turns === 1 ? null : made,
          guardrail_events: [],
          model: 'gpt-4o',
          token_usage: null,
          source: 'imported' as const,
        };
      }),
    );
    // Paired by content: a multi-row insert does not promise to answer in input order.
    const conversationOf = new Map(conversations.map((c) => [c.final_response, c.id]));
    const cases = await insertEvalCases(
      db,
      setId,
      numbers.map((i) => {
        const expected = Array.from({ length: turns }, (_, t) => turnOf(i, t, turns)).map((turn) => ({
          user_message: turn.message,
          expected_trajectory: [turn.call],
          expected_response: judged ? turn.answer : null,
        }));
        return {
          name: `case ${i}`,
          ...firstTurnColumns(expected, {}),
          turns: turns === 1 ? null : expected,
          rubrics: null,
          source_run_id: conversationOf.get(turnOf(i, turns - 1, turns).answer) ?? null,
          snapshot: null,
        };
      }),
    );
    ids.push(...cases.map((c) => c.id));
  }
  return ids;
}
