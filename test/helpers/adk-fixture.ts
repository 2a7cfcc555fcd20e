import fs from 'node:fs';
import path from 'node:path';
import type { ImportCase } from '../../domain/eval/eval-set-file.reader';

/** Path of the ADK eval set written for the tests: three one-turn cases, then the multi-turn `multi_turn`. */
export const ADK_FIXTURE = path.join(__dirname, '..', 'fixtures', 'adk', 'support.evalset.json');

/** A fresh parse of the ADK fixture. */
export const adkFixture = (): { eval_cases: unknown[] } & Record<string, unknown> =>
  JSON.parse(fs.readFileSync(ADK_FIXTURE, 'utf8'));

/** The one-turn cases of the fixture as Assay cases, in the fixture's order (an ADK case matches by `lcs`); ADK's
 * `session_input` keeps its `app_name` and `user_id` beside the message, its `state` is the case's. */
export const ADK_FIXTURE_CASES: ImportCase[] = [
  {
    name: 'order_status',
    session_input: { message: 'Where is order 42?', app_name: 'support', user_id: 'u1' },
    expected_trajectory: [
      {
        tool_name: 'lookup_order',
        tool_args: { order: { id: 42, lines: [{ sku: 'A-1', qty: 2 }] }, include_history: true },
      },
    ],
    trajectory_match: 'lcs',
    expected_final_response: 'Order 42 shipped yesterday.',
    rubrics: null,
    state: {},
  },
  {
    name: 'refund',
    session_input: { message: 'My parcel arrived broken.\nRefund order 7.' },
    expected_trajectory: [
      { tool_name: 'lookup_order', tool_args: { order: { id: 7 } } },
      // The ADK key mapping stops at the args: `orderId` is the tool's own name and stays camelCase.
      { tool_name: 'refund', tool_args: { orderId: 7, reason: { code: 'damaged', notes: ['box crushed'] } } },
    ],
    trajectory_match: 'lcs',
    expected_final_response: 'Sorry about that, order 7 is refunded.',
    rubrics: ['The reply apologizes'],
  },
  {
    name: 'greeting',
    session_input: { message: 'Hello!' },
    expected_trajectory: null,
    trajectory_match: 'lcs',
    expected_final_response: 'Hi, how can I help?',
    rubrics: null,
  },
];

/** The fixture's multi-turn case `multi_turn` as a case of two turns (the single-turn fields mirror turn 0). */
export const ADK_FIXTURE_MULTI_TURN: ImportCase = {
  name: 'multi_turn',
  session_input: { message: 'Cancel my order' },
  expected_trajectory: null,
  trajectory_match: 'lcs',
  expected_final_response: 'Which order?',
  rubrics: null,
  turns: [
    { user_message: 'Cancel my order', expected_response: 'Which order?' },
    {
      user_message: 'Order 9',
      expected_trajectory: [{ tool_name: 'cancel_order', tool_args: { id: 9 } }],
      expected_response: 'Order 9 is cancelled.',
    },
  ],
};
