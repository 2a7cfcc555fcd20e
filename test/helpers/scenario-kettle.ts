/** A scenario case with a written persona and a case rubric (the builder's scenario test). */
export const KETTLE_SCENARIO = {
  name: 'refund a damaged kettle',
  conversation_scenario: {
    starting_prompt: 'My kettle arrived damaged',
    conversation_plan: 'ask for a refund; accept store credit only if refused',
    user_persona: {
      description: 'A novice customer, polite and brief',
      behaviours: ['writes short messages'],
      violation_rubrics: ['asks about prices'],
    },
  },
  rubrics: ['confirms the refund'],
};

/** The conversation a simulated user had for it: turn 1 breaks the persona (it asks about prices). */
export const KETTLE_TURNS = [
  {
    user_message: 'My kettle arrived damaged',
    final_response: 'Sorry to hear that! Shall I refund it?',
    tool_calls: [],
  },
  { user_message: 'What is the price of a new one?', final_response: 'A new one costs 30 euros.', tool_calls: [] },
  { user_message: 'Just refund it please', final_response: 'Done: your refund is on its way.', tool_calls: [] },
];
