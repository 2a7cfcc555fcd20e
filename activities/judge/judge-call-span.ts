import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import type { RunJudge } from '../../db/tables/eval-run.table';
import type { JsonChatReply } from '../../lib/outbound/llm/provider-client';
import type { JudgedCase } from './judge-call-budget';

/** Runs one judge request to the provider. */
export type JudgeCall = (request: () => Promise<JsonChatReply>) => Promise<JsonChatReply>;

/**
 * A span per judge call (`judge.chat`, child of the scoring activity's span) around the provider request, with the
 * provider, model, run, case and token usage; without a tracer the request runs as is. Prompts and replies are never
 * recorded: they hold the conversations under evaluation.
 */
export function judgeCallSpan(tracer: Tracer | undefined, judge: RunJudge, judged: JudgedCase): JudgeCall {
  if (!tracer) return (request) => request();
  const attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.system': judge.provider,
    'gen_ai.request.model': judge.model,
    'assay.eval_run.id': judged.runId,
    'assay.eval_case.id': judged.caseId,
  };
  return (request) =>
    tracer.startActiveSpan('judge.chat', { kind: SpanKind.CLIENT, attributes }, async (span) => {
      try {
        const reply = await request();
        span.setAttributes({
          'gen_ai.usage.input_tokens': reply.usage.prompt_tokens,
          'gen_ai.usage.output_tokens': reply.usage.completion_tokens,
        });
        return reply;
      } catch (error) {
        span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
        throw error;
      } finally {
        span.end();
      }
    });
}
