import type { JudgeMessage } from '../scoring/judge-prompts';

/** The tool a model writes a response for: its name, description and declared output schema (if any). */
export interface SimulatedTool {
  name: string;
  description: string;
  outputSchema?: unknown;
}

const SYSTEM = [
  'You simulate an MCP tool for the evaluation of an AI agent: write the result the tool would plausibly return',
  'for the given arguments, consistent with its description.',
  'Reply with JSON only: {"content": [{"type": "text", "text": "<the result as text>"}], "structuredContent": {…}}.',
  'When the tool declares an output schema, structuredContent is required and must validate against it.',
].join(' ');

/** The messages asking a model for a tool's response; `problem` is why the previous answer was refused. */
export function toolResponsePrompt(
  tool: SimulatedTool,
  args: Record<string, unknown>,
  problem?: string,
): JudgeMessage[] {
  const user = {
    task: 'simulate_tool_response',
    tool: tool.name,
    description: tool.description,
    ...(tool.outputSchema ? { output_schema: tool.outputSchema } : {}),
    arguments: args,
    ...(problem ? { previous_answer_refused_because: problem } : {}),
  };
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: JSON.stringify(user) },
  ];
}
