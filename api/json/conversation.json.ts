import { z } from 'zod';
import type { Conversation } from '../../db/tables/conversation.table';

const recordedCallJson = z.object({
  tool_name: z.string().describe('an MCP tool: its name as GET /api/v1/mcp-servers/{id}/tools lists it'),
  tool_args: z.record(z.string(), z.unknown()),
  server: z.string().optional().describe('an MCP tool call: the name of its server'),
  result: z.unknown().optional(),
  error: z.string().optional(),
  simulated: z.boolean().optional(),
  replayed: z.boolean().optional(),
  answered_by: z
    .enum(['mock', 'cassette', 'model'])
    .optional()
    .describe('a sandbox call answered by a tool mock, the eval set cassette or a model-written response'),
  judge_usage: z
    .object({ calls: z.number(), prompt_tokens: z.number(), completion_tokens: z.number(), total_tokens: z.number() })
    .optional()
    .describe("a model-written response: the judge calls that wrote it (the eval run's judge provider and model)"),
  call_key: z.string().optional(),
  exposed_name: z.string().optional().describe('a gateway call: the name the MCP client called (with the link prefix)'),
  started_at: z.string().optional().describe('a gateway call: when it started'),
  latency_ms: z.number().optional().describe('a gateway call: its duration'),
  argument_bytes: z.number().optional().describe('a gateway call: size of its arguments as JSON'),
  result_bytes: z.number().optional().describe('a gateway call: size of its result as JSON'),
});

/** The API shape of a conversation, as every `/runs` endpoint answers it. */
export const conversationJson = z.object({
  id: z.string(),
  agent_id: z.string(),
  source: z.string(),
  session_input: z.record(z.string(), z.unknown()),
  messages: z.array(
    z.object({
      role: z.string(),
      content: z.string(),
      tool_calls: z.array(z.object({ id: z.string(), name: z.string(), arguments: z.string() })).optional(),
      tool_call_id: z.string().optional(),
    }),
  ),
  // Runs of the agent runtime also say per call whether it failed and whether it was simulated or replayed (sandbox).
  tool_calls: z.array(recordedCallJson),
  final_response: z.string(),
  turns: z
    .array(z.object({ user_message: z.string(), tool_calls: z.array(recordedCallJson), final_response: z.string() }))
    .nullable()
    .describe(
      'A conversation of many turns, in order (tool_calls and final_response above sum them up); null: one turn',
    ),
  guardrail_events: z.array(
    z.object({ guardrail: z.string(), stage: z.string().nullish(), detail: z.unknown().optional() }),
  ),
  model: z.string().nullable(),
  token_usage: z.record(z.string(), z.number()).nullable(),
  latency_ms: z.number().nullable(),
  agent_version: z.number().nullable(),
  stop_reason: z
    .string()
    .nullable()
    .describe(
      'agent runtime: completed, input_blocked, step_limit (a turn reached max_steps) or message_limit (no room left ' +
        'for the next turn); null when imported',
    ),
  simulation: z
    .object({
      scenario: z.record(z.string(), z.unknown()),
      simulator_model: z.string(),
      simulator_calls: z.number(),
      cached_turns: z.number(),
      simulator_usage: z.object({
        calls: z.number(),
        prompt_tokens: z.number(),
        completion_tokens: z.number(),
        total_tokens: z.number(),
      }),
    })
    .nullable()
    .describe(
      'a simulated user played the user (a scenario case of a live run): its scenario, the simulator model, the ' +
        'simulator calls made and the user turns the frozen simulation replayed without a call; null otherwise',
    ),
  mcp_session_id: z.string().nullable().describe('a gateway recording: the MCP session it records'),
  truncated: z
    .boolean()
    .describe('a gateway recording stopped keeping calls, arguments or results at a bound (the calls went on)'),
  created_at: z.string(),
});

/** The API shape of a conversation (the spec's run of an agent). */
export function toConversationJson(row: Conversation): z.infer<typeof conversationJson> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    source: row.source,
    session_input: row.session_input,
    messages: row.messages,
    tool_calls: row.tool_calls,
    final_response: row.final_response,
    turns: row.turns,
    guardrail_events: row.guardrail_events,
    model: row.model,
    token_usage: row.token_usage,
    latency_ms: row.latency_ms,
    agent_version: row.agent_version,
    stop_reason: row.stop_reason,
    simulation: row.simulation ?? null,
    mcp_session_id: row.mcp_session_id,
    truncated: row.truncated,
    created_at: row.created_at.toISOString(),
  };
}
