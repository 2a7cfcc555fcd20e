import type { ToolAnswerSource } from '../../db/tables/conversation.table';
import type { JudgeUsage } from '../../db/tables/eval-run.table';

/** How one tool call was answered: arguments, result or error, and whether it had a real effect. */
export interface ToolExecution {
  args: Record<string, unknown>;
  result?: unknown;
  error?: string;
  /** No real effect: simulated or replayed in the sandbox. */
  simulated: boolean;
  replayed: boolean;
  /** The recorded call replayed (its index in the run's replay calls). */
  replayIndex?: number;
  /** The tool mock that answered (its index in the run's mocks). */
  mockIndex?: number;
  /** The run has tool mocks and none matched the call. */
  unmatched?: boolean;
  /** What answered a sandbox call other than a replay or a real call. */
  answeredBy?: ToolAnswerSource;
  /** A model-written response: the judge usage of the calls that wrote it. */
  simulationUsage?: JudgeUsage;
}

function mcpText(result: unknown): string | null {
  const content = (result as { content?: unknown } | null)?.content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter(
    (item): item is { type: 'text'; text: string } => item?.type === 'text' && typeof item.text === 'string',
  );
  return texts.length === content.length && texts.length > 0 ? texts.map((item) => item.text).join('\n') : null;
}

/** The tool message the model is sent: an MCP result's text, else the result (or error) as JSON. */
export function toolMessageContent(execution: ToolExecution): string {
  if (execution.error !== undefined)
    return JSON.stringify({
      error: execution.error,
      ...(execution.result !== undefined ? { result: execution.result } : {}),
    });
  return mcpText(execution.result) ?? JSON.stringify(execution.result ?? null);
}
