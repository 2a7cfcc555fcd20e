import { LIMITS, type LimitName } from './limits';

/** The deepest nesting of objects and lists a JSON input may have (deeper overflows the stack of later recursion). */
export const MAX_JSON_DEPTH = 32;

/** What a bound counts: items of a list, characters of a string, or bytes of a body or JSON value. */
export type LimitUnit = 'items' | 'characters' | 'bytes' | 'ms';

/** The one wording of a broken bound, e.g. `at most 1000 items (limit toolCallsPerConversation)`. */
export function limitMessage(name: LimitName, unit: LimitUnit): string {
  return `at most ${LIMITS[name]} ${unit} (limit ${name})`;
}

/** The limit a message of {@link limitMessage} names, so a 422 can carry it in its details. */
export function limitNamedIn(message: string): LimitName | undefined {
  const name = /\(limit (\w+)\)$/.exec(message)?.[1];
  return name !== undefined && Object.hasOwn(LIMITS, name) ? (name as LimitName) : undefined;
}

/** The size of a JSON value as stored or sent, in UTF-8 bytes. */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? '').length;
}

/** A stored list longer than its limit, said the way the worker reports it, or undefined when within it. */
export function overLimit(what: string, length: number, name: LimitName): string | undefined {
  return length > LIMITS[name]
    ? `${what} has ${length} items, over the limit of ${LIMITS[name]} (limit ${name})`
    : undefined;
}

/** The first bound a stored conversation breaks (rows written before the limits existed), else undefined. */
export function storedConversationProblem(conversation: {
  tool_calls: readonly unknown[];
  messages: readonly unknown[];
  guardrail_events: readonly unknown[];
}): string | undefined {
  return (
    overLimit('the conversation tool_calls', conversation.tool_calls.length, 'toolCallsPerConversation') ??
    overLimit('the conversation messages', conversation.messages.length, 'messagesPerConversation') ??
    overLimit(
      'the conversation guardrail_events',
      conversation.guardrail_events.length,
      'guardrailEventsPerConversation',
    )
  );
}

/** The first bound a stored case breaks (rows written before the limits existed), else undefined. */
export function storedCaseProblem(evalCase: {
  expected_trajectory: readonly unknown[] | null;
  rubrics: readonly unknown[] | null;
  snapshot: { tool_calls: readonly unknown[] } | null;
}): string | undefined {
  return (
    overLimit(
      'the case expected_trajectory',
      evalCase.expected_trajectory?.length ?? 0,
      'toolCallsPerExpectedTrajectory',
    ) ??
    overLimit('the case rubrics', evalCase.rubrics?.length ?? 0, 'rubricsPerCase') ??
    overLimit('the case snapshot tool_calls', evalCase.snapshot?.tool_calls.length ?? 0, 'toolCallsPerConversation')
  );
}
