import assert from 'node:assert/strict';
import { boundedArray, boundedRecord, boundedString } from '../../domain/bounded-schemas';
import {
  jsonBytes,
  limitMessage,
  limitNamedIn,
  overLimit,
  storedCaseProblem,
  storedConversationProblem,
} from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
import { z } from 'zod';

const list = (n: number): number[] => Array.from({ length: n }, (_, i) => i);
const conversation = (sizes: { tool_calls?: number; messages?: number; guardrail_events?: number }) => ({
  tool_calls: list(sizes.tool_calls ?? 0),
  messages: list(sizes.messages ?? 0),
  guardrail_events: list(sizes.guardrail_events ?? 0),
});

describe('limit checks', () => {
  it('words a bound with its value and its key, and reads the key back', () => {
    const message = limitMessage('toolCallsPerConversation', 'items');
    assert.equal(message, `at most ${LIMITS.toolCallsPerConversation} items (limit toolCallsPerConversation)`);
    assert.equal(limitNamedIn(`tool_calls: ${message}`), 'toolCallsPerConversation');
    assert.equal(limitNamedIn('Too big: expected string to have <=200 characters'), undefined);
    assert.equal(limitNamedIn('at most 3 items (limit constructor)'), undefined, 'only keys of the table');
  });

  it('accepts each bounded schema at its limit and refuses one more with the limit in the message', () => {
    const cases: Array<[z.ZodType, unknown, unknown]> = [
      [boundedArray(z.number(), 'rubricsPerCase'), list(LIMITS.rubricsPerCase), list(LIMITS.rubricsPerCase + 1)],
      [boundedString('guardrailPatternChars'), 'p'.repeat(LIMITS.guardrailPatternChars), 'p'.repeat(501)],
      [
        boundedRecord(z.string(), 'flowNodes'),
        Object.fromEntries(list(LIMITS.flowNodes).map((i) => [`k${i}`, 'v'])),
        Object.fromEntries(list(LIMITS.flowNodes + 1).map((i) => [`k${i}`, 'v'])),
      ],
    ];
    for (const [schema, largest, over] of cases) {
      assert.equal(schema.safeParse(largest).success, true);
      const refused = schema.safeParse(over);
      assert.equal(refused.success, false);
      assert.ok(limitNamedIn(refused.error?.issues[0].message ?? ''), refused.error?.issues[0].message);
    }
  });

  it('counts JSON in UTF-8 bytes', () => {
    assert.equal(jsonBytes('é'), 4);
    assert.equal(jsonBytes({ a: 1 }), 7);
    assert.equal(jsonBytes(undefined), 0);
  });

  it('passes stored rows at their limits and names the first limit a row breaks', () => {
    assert.equal(overLimit('x', LIMITS.flowNodes, 'flowNodes'), undefined);
    assert.equal(
      overLimit('the flow nodes', LIMITS.flowNodes + 1, 'flowNodes'),
      `the flow nodes has 51 items, over the limit of 50 (limit flowNodes)`,
    );
    const atLimit = conversation({
      tool_calls: LIMITS.toolCallsPerConversation,
      messages: LIMITS.messagesPerConversation,
      guardrail_events: LIMITS.guardrailEventsPerConversation,
    });
    assert.equal(storedConversationProblem(atLimit), undefined);
    const overEvents = conversation({ guardrail_events: LIMITS.guardrailEventsPerConversation + 1 });
    assert.match(storedConversationProblem(overEvents) ?? '', /\(limit guardrailEventsPerConversation\)$/);
    const overMessages = conversation({ messages: LIMITS.messagesPerConversation + 1 });
    assert.match(storedConversationProblem(overMessages) ?? '', /\(limit messagesPerConversation\)$/);
  });

  it('checks a stored case: trajectory, rubrics and snapshot, with null fields within every limit', () => {
    const none = { expected_trajectory: null, rubrics: null, snapshot: null };
    assert.equal(storedCaseProblem(none), undefined);
    const rubrics = { ...none, rubrics: list(LIMITS.rubricsPerCase + 1) };
    assert.match(storedCaseProblem(rubrics) ?? '', /\(limit rubricsPerCase\)$/);
    const trajectory = { ...none, expected_trajectory: list(LIMITS.toolCallsPerExpectedTrajectory + 1) };
    assert.match(storedCaseProblem(trajectory) ?? '', /\(limit toolCallsPerExpectedTrajectory\)$/);
    const snapshot = { ...none, snapshot: { tool_calls: list(LIMITS.toolCallsPerConversation + 1) } };
    assert.match(storedCaseProblem(snapshot) ?? '', /snapshot tool_calls .*\(limit toolCallsPerConversation\)$/);
  });
});
