import { judgeReplies } from './eval-api';
import type { ScriptedReply, ScriptedRequest } from './scripted-llm';

type Sent = ScriptedRequest['messages'];

/** The last user message a request sent (the current turn's). */
export const lastUserMessage = (messages: Sent): string =>
  messages.filter((m) => m.role === 'user').pop()?.content ?? '';

// The judge says two replies match when they are equal.
const judge = judgeReplies({});

/**
 * Plays the agent's model of the multi-turn live tests, answering on the turn's (last) user message: "update contact
 * c7" updates it first, "which contact was it?" answers from the session so far, "recall the sum" calls get-sum and
 * quotes it, "loop forever" calls a tool at every step; judge requests go to a judge that matches equal replies.
 */
export function multiTurnAgent(req: ScriptedRequest): ScriptedReply {
  if (req.body.tools === undefined) return judge(req);
  const message = lastUserMessage(req.messages);
  if (message === 'update contact c7')
    return req.messages[req.messages.length - 1].role === 'tool'
      ? { content: 'updated c7' }
      : { toolCalls: [{ id: 'call-c7', name: 'crm_update_contact', arguments: { contact_id: 'c7', name: 'Ada' } }] };
  if (message === 'which contact was it?') {
    const updated = req.messages.some((m) => m.tool_calls?.some((call) => call.function.arguments.includes('c7')));
    return { content: updated ? 'it was c7' : 'I do not know' };
  }
  if (message === 'recall the sum') {
    const last = req.messages[req.messages.length - 1];
    if (last.role === 'tool') return { content: `the sum said: ${last.content}` };
    const offered = (req.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    return {
      toolCalls: [{ name: offered.find((n) => n.endsWith('get-sum')) ?? 'missing', arguments: { a: 2, b: 3 } }],
    };
  }
  if (message === 'loop forever')
    return { toolCalls: [{ name: 'crm_update_contact', arguments: { contact_id: `c${req.messages.length}` } }] };
  if (message === 'thanks') return { content: `you are welcome (${req.messages.length} messages so far)` };
  return { content: 'ok' };
}

/** What a request sent, as role and text (an assistant's tool calls by name). */
export const sentShape = (messages: Sent): string[] =>
  messages.map((m) =>
    m.tool_calls?.length ? `assistant:${m.tool_calls.map((c) => c.function.name).join(',')}` : `${m.role}:${m.content}`,
  );

/** A recorded get-sum call of the everything server, answered with `text`. */
export const recordedSum = (text: string) => ({
  tool_name: 'get-sum',
  server: 'everything',
  tool_args: { a: 2, b: 3 },
  result: { content: [{ type: 'text', text }] },
});

/** The tool message the sandbox answers crm_update_contact with for c7. */
export function toolText(): string {
  return JSON.stringify({ status: 'updated', contact_id: 'c7', simulated: true });
}
