import { createTraceState } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-node';
import type { ClientInterceptors } from '@temporalio/client';
import {
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
  OpenTelemetryWorkflowClientInterceptor,
  type OpenTelemetrySinks,
  type SerializableSpan,
} from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerInterceptors } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Tracing } from './tracing';

/** Workflow-side interceptors: bundled into every workflow bundle (worker/workflow-bundle.ts), traced or not. */
export const WORKFLOW_TRACING_INTERCEPTORS =
  require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** Workflow start, signal and query spans, whose context the workflow's headers carry to the worker. */
export function tracingClientInterceptors(tracing: Tracing | null): ClientInterceptors | undefined {
  return tracing ? { workflow: [new OpenTelemetryWorkflowClientInterceptor({ tracer: tracing.tracer })] } : undefined;
}

/** A span per activity execution, child of the workflow's span that scheduled it. */
export function tracingWorkerInterceptors(tracing: Tracing | null): WorkerInterceptors {
  if (!tracing) return {};
  return {
    activity: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer: tracing.tracer }),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
  };
}

/**
 * The sink through which the bundled workflow interceptors hand out their spans. Always registered, since every
 * bundle carries the interceptors; without tracing it drops them. The package's own `makeWorkflowExporter` is not
 * used: the sandbox records spans with the 1.x SDK the package bundles (`parentSpanId`, `instrumentationLibrary`)
 * while this process exports with the 2.x SDK (`parentSpanContext`, `instrumentationScope`), so they are mapped here.
 */
export function workflowSpanSinks(tracing: Tracing | null): InjectedSinks<OpenTelemetrySinks> {
  return {
    exporter: {
      export: {
        fn: (info, spans) => {
          for (const span of spans) tracing?.spanProcessor.onEnd(toReadableSpan(span, info, tracing));
        },
      },
    },
  };
}

function toReadableSpan(span: SerializableSpan, info: WorkflowInfo, tracing: Tracing): ReadableSpan {
  const { traceState, ...ids } = span.spanContext;
  const spanContext = { ...ids, traceState: traceState ? createTraceState(traceState) : undefined };
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => spanContext,
    parentSpanContext: span.parentSpanId
      ? { traceId: ids.traceId, spanId: span.parentSpanId, traceFlags: ids.traceFlags }
      : undefined,
    startTime: span.startTime,
    endTime: span.endTime,
    status: span.status,
    attributes: {
      ...span.attributes,
      temporalWorkflowId: info.workflowId,
      run_id: info.runId,
      temporalWorkflowType: info.workflowType,
    },
    links: span.links,
    events: span.events,
    duration: span.duration,
    ended: span.ended,
    resource: tracing.resource,
    instrumentationScope: span.instrumentationLibrary,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}
