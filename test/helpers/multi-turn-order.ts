/**
 * A four-turn order conversation for the builder page: the case expects look up, cancel, refund and goodbye; the
 * agent's conversation looks the order up again instead of cancelling (turn 1 fails), refunds, and stops before the
 * goodbye (turn 3 is missing).
 */
const lookup = { tool_name: 'lookup_order', tool_args: { id: 2001 } };
const cancel = { tool_name: 'cancel_order', tool_args: { id: 2001 } };
const refund = { tool_name: 'refund_order', tool_args: { id: 2001 } };

/** The case: four turns, each with its expected calls and reply, and one rubric over the whole conversation. */
export const ORDER_CASE = {
  name: 'cancel and refund an order',
  rubrics: ['Stays polite throughout the conversation'],
  turns: [
    {
      user_message: 'Where is order 2001?',
      expected_trajectory: [lookup],
      expected_response: 'Order 2001 ships tomorrow.',
    },
    {
      user_message: 'Please cancel order 2001.',
      expected_trajectory: [cancel],
      expected_response: 'Order 2001 is cancelled.',
    },
    {
      user_message: 'Refund it to my card.',
      expected_trajectory: [refund],
      expected_response: 'The refund is on its way.',
    },
    { user_message: 'Thanks, bye.', expected_response: 'Goodbye!' },
  ],
};

/** The agent's conversation: three turns, the second one wrong. */
export const ORDER_CONVERSATION = {
  turns: [
    { user_message: 'Where is order 2001?', tool_calls: [lookup], final_response: 'Order 2001 ships tomorrow.' },
    { user_message: 'Please cancel order 2001.', tool_calls: [lookup], final_response: 'I cannot cancel orders.' },
    { user_message: 'Refund it to my card.', tool_calls: [refund], final_response: 'The refund is on its way.' },
  ],
};

/** The conversation the case expects: all four turns right. */
export const ORDER_CONVERSATION_RIGHT = {
  turns: [
    ...ORDER_CONVERSATION.turns.slice(0, 1),
    { user_message: 'Please cancel order 2001.', tool_calls: [cancel], final_response: 'Order 2001 is cancelled.' },
    ...ORDER_CONVERSATION.turns.slice(2),
    { user_message: 'Thanks, bye.', tool_calls: [], final_response: 'Goodbye!' },
  ],
};

/** A case of a simulated conversation, which a run reports skipped until a user simulator exists. */
export const ORDER_SCENARIO = {
  name: 'insist on a refund',
  conversation_scenario: { starting_prompt: 'I want my money back for order 2001', conversation_plan: 'insist twice' },
};
