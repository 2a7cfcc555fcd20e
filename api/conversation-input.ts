import { z } from 'zod';
import type { ConversationInput } from '../db/conversation.repository';
import { boundedArray, boundedJson, boundedString, withinBytes } from '../domain/bounded-schemas';
import { toolCallSchema } from '../domain/trajectory/tool-call';
import { sessionInputSchema } from '../domain/eval/eval-fields';

/** What `POST /runs/import` takes: one conversation recorded elsewhere (the batch import takes a list of these). */
export const conversationImportBody = z
  .object({
    session_input: sessionInputSchema,
    messages: boundedArray(
      z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: boundedString('responseChars') }),
      'messagesPerConversation',
    ).optional(),
    tool_calls: boundedArray(
      toolCallSchema.extend({ result: boundedJson('toolResultBytes').optional() }),
      'toolCallsPerConversation',
    ).default([]),
    final_response: boundedString('responseChars'),
    guardrail_events: boundedArray(
      z.object({
        guardrail: z.string().min(1).max(100),
        stage: z.string().max(100).nullish(),
        detail: boundedJson('guardrailDetailBytes').optional(),
      }),
      'guardrailEventsPerConversation',
    ).default([]),
    model: z.string().trim().min(1).max(200).optional(),
    token_usage: withinBytes(z.record(z.string(), z.number().nonnegative()), 'tokenUsageBytes').optional(),
  })
  .strict();

/** The stored form of an imported conversation (a transcript of the message and reply unless `messages` is given). */
export function importedConversation(body: z.infer<typeof conversationImportBody>): ConversationInput {
  return {
    session_input: body.session_input,
    messages: body.messages ?? [
      { role: 'user', content: body.session_input.message },
      { role: 'assistant', content: body.final_response },
    ],
    tool_calls: body.tool_calls,
    final_response: body.final_response,
    guardrail_events: body.guardrail_events,
    model: body.model ?? null,
    token_usage: body.token_usage ?? null,
    source: 'imported',
  };
}
