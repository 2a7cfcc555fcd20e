import { z } from 'zod';
import type { ConversationInput } from '../db/conversation.repository';
import { boundedArray, boundedJson, boundedString, withinBytes } from '../domain/bounded-schemas';
import { toolCallSchema } from '../domain/trajectory/tool-call';
import { nonBlank, turnsSessionInputSchema } from '../domain/eval/eval-fields';
import { conversationColumnsOf } from '../domain/eval/conversation-turns';
import { limitMessage } from '../domain/limit-checks';
import { LIMITS } from '../domain/limits';

const recordedCalls = boundedArray(
  toolCallSchema.extend({ result: boundedJson('toolResultBytes').optional() }),
  'toolCallsPerConversation',
);

const conversationTurn = z
  .object({
    user_message: nonBlank,
    tool_calls: recordedCalls.default([]),
    final_response: boundedString('responseChars'),
  })
  .strict();

/**
 * What `POST /runs/import` takes: one conversation recorded elsewhere (the batch import takes a list of these),
 * either one turn (`session_input`, `tool_calls`, `final_response`) or `turns`, each with its message, calls and reply.
 */
export const conversationImportFields = z
  .object({
    session_input: turnsSessionInputSchema.optional(),
    turns: boundedArray(conversationTurn, 'turnsPerConversation')
      .min(1, 'a conversation has at least one turn')
      .optional(),
    messages: boundedArray(
      z.object({ role: z.enum(['system', 'user', 'assistant', 'tool']), content: boundedString('responseChars') }),
      'messagesPerConversation',
    ).optional(),
    tool_calls: recordedCalls.optional(),
    final_response: boundedString('responseChars').optional(),
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

/** The rules between a conversation's fields: `turns` or a single turn's `session_input` and `final_response`. */
export function checkConversationShape(body: z.infer<typeof conversationImportFields>, ctx: z.RefinementCtx): void {
  const problem = (path: string[], message: string) => ctx.addIssue({ code: 'custom', path, message });
  if (!body.turns) {
    if (!body.session_input) problem(['session_input'], 'required (or give turns)');
    else if (body.session_input.message === undefined)
      problem(['session_input', 'message'], 'required (or give turns)');
    if (body.final_response === undefined) problem(['final_response'], 'required (or give turns)');
    return;
  }
  for (const key of ['tool_calls', 'final_response'] as const)
    if (body[key] !== undefined) problem([key], `a conversation of turns holds this in each turn's ${key}`);
  const calls = body.turns.reduce((sum, turn) => sum + turn.tool_calls.length, 0);
  if (calls > LIMITS.toolCallsPerConversation) problem(['turns'], limitMessage('toolCallsPerConversation', 'items'));
  const message = body.session_input?.message;
  if (message !== undefined && message !== body.turns[0].user_message)
    problem(['session_input', 'message'], 'must equal turns[0].user_message (or be left out)');
}

/** What `POST /runs/import` takes. */
export const conversationImportBody = conversationImportFields.superRefine(checkConversationShape);

/**
 * The stored form of an imported conversation (a transcript of the messages and replies unless `messages` is
 * given); a conversation of turns keeps them, and its single-turn fields sum them up.
 */
export function importedConversation(body: z.infer<typeof conversationImportBody>): ConversationInput {
  const turns = body.turns ?? [
    {
      user_message: body.session_input?.message ?? '',
      tool_calls: body.tool_calls ?? [],
      final_response: body.final_response ?? '',
    },
  ];
  const summed = conversationColumnsOf(turns);
  return {
    session_input: { ...body.session_input, message: turns[0].user_message },
    messages: body.messages ?? summed.messages,
    tool_calls: summed.tool_calls,
    final_response: summed.final_response,
    turns: body.turns ?? null,
    guardrail_events: body.guardrail_events,
    model: body.model ?? null,
    token_usage: body.token_usage ?? null,
    source: 'imported',
  };
}
