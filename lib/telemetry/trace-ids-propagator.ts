import { trace, type Context, type TextMapPropagator, type TextMapSetter } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C trace context that reads a caller's `traceparent` and `tracestate` but writes only `traceparent` (trace and span
 * ids): what it injects lands in Temporal headers, unencrypted, and a client's `tracestate` is free text it chose.
 */
export class TraceIdsPropagator implements TextMapPropagator {
  private readonly w3c = new W3CTraceContextPropagator();

  inject(context: Context, carrier: unknown, setter: TextMapSetter): void {
    const spanContext = trace.getSpanContext(context);
    const idsOnly = spanContext?.traceState ? { ...spanContext, traceState: undefined } : undefined;
    this.w3c.inject(idsOnly ? trace.setSpanContext(context, idsOnly) : context, carrier, setter);
  }

  extract: TextMapPropagator['extract'] = (context, carrier, getter) => this.w3c.extract(context, carrier, getter);

  fields(): string[] {
    return ['traceparent'];
  }
}
