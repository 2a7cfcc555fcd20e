import { toolMessages, userMessage } from './agent-api';
import type { ScriptedReply, ScriptedRequest } from './scripted-llm';

/** One call the scripted agent makes: the tool (by its offered name, or an MCP tool's listed name) and its arguments. */
export interface ListedCall {
  tool: string;
  args: Record<string, unknown>;
}

/**
 * A scripted agent whose user message is the JSON list of calls to make, one per step; its final answer is the JSON
 * list of what each call answered (the tool messages' contents).
 */
export function callListScript(req: ScriptedRequest): ScriptedReply {
  const calls = JSON.parse(userMessage(req.messages)) as ListedCall[];
  const done = toolMessages(req.messages);
  if (done >= calls.length)
    return { content: JSON.stringify(req.messages.filter((m) => m.role === 'tool').map((m) => m.content)) };
  const offered = (req.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
  const name = offered.find((n) => n === calls[done].tool || n.endsWith(`__${calls[done].tool}`));
  return { toolCalls: [{ name: name ?? 'missing', arguments: calls[done].args }] };
}

/** An MCP result of one text. */
export const textResult = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** A call of server-everything's get-sum. */
export const sumCall = (a: number, b: number): ListedCall => ({ tool: 'get-sum', args: { a, b } });
