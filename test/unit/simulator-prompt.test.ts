import assert from 'node:assert/strict';
import { LIMITS } from '../../domain/limits';
import { conversationScenarioSchema } from '../../domain/eval/case-turns';
import { BUILT_IN_PERSONAS, resolvePersona } from '../../domain/eval/personas';
import { parseSimulatorReply, simulatorPrompt } from '../../domain/eval/simulator-prompt';
import { simulatorSettingsSchema } from '../../domain/eval/simulator-settings';

describe('the simulated user', () => {
  it('reads its reply: JSON or plain text, the stop signal in any case, empty or oversized replies unusable', () => {
    assert.deepEqual(parseSimulatorReply('{"message": " where is my refund? "}', '</finished>'), {
      stop: false,
      message: 'where is my refund?',
    });
    assert.deepEqual(parseSimulatorReply('thanks, bye </FINISHED>', '</finished>'), { stop: true });
    assert.deepEqual(parseSimulatorReply('{"message": "</finished>"}', '</finished>'), { stop: true });
    assert.equal(parseSimulatorReply('{"message": "  "}', '</finished>'), null);
    assert.equal(parseSimulatorReply('x'.repeat(LIMITS.simulatorReplyChars + 1), '</finished>'), null);
    assert.deepEqual(parseSimulatorReply('x'.repeat(LIMITS.simulatorReplyChars), '</finished>'), {
      stop: false,
      message: 'x'.repeat(LIMITS.simulatorReplyChars),
    });
  });

  it("resolves personas: built-in by name in any case, its own, and ADK's shape", () => {
    assert.deepEqual(resolvePersona('EXPERT'), BUILT_IN_PERSONAS.expert);
    const own = { description: 'a tourist', behaviours: ['asks in French'], violation_rubrics: ['speaks English'] };
    assert.deepEqual(resolvePersona(own), own);
    const adk = {
      id: 'TOURIST',
      description: 'a tourist',
      behaviors: [
        {
          name: 'lang',
          description: 'asks in French',
          behavior_instructions: ['never English'],
          violation_rubrics: ['speaks English'],
        },
      ],
    };
    assert.deepEqual(resolvePersona(adk), {
      description: 'a tourist',
      behaviours: ['asks in French', 'never English'],
      violation_rubrics: ['speaks English'],
    });
    assert.equal(resolvePersona(undefined), null);
    const refused = conversationScenarioSchema.safeParse({ starting_prompt: 'hi', user_persona: 'pirate' });
    assert.equal(refused.success, false);
  });

  it('puts the persona, plan, transcript and stop signal into the prompt', () => {
    const messages = simulatorPrompt(
      { starting_prompt: 'hi', conversation_plan: 'return a kettle', user_persona: 'novice' },
      [{ user: 'hi', agent: 'hello, how can I help?' }],
      '<done/>',
    );
    assert.match(messages[0].content, /A novice is trying/);
    assert.match(messages[0].content, /return a kettle/);
    assert.match(messages[0].content, /"<done\/>"/);
    assert.equal(messages[1].content, '# Conversation History\n\nuser: hi\n\nagent: hello, how can I help?');
  });

  it('bounds max_turns by turnsPerScenario and fills the defaults', () => {
    assert.deepEqual(simulatorSettingsSchema.parse({}), { max_turns: 8, stop_signal: '</finished>' });
    const over = simulatorSettingsSchema.safeParse({ max_turns: LIMITS.turnsPerScenario + 1 });
    assert.equal(over.success, false);
    assert.match(over.error?.issues[0].message ?? '', /limit turnsPerScenario/);
  });
});
