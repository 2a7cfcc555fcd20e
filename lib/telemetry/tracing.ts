import { context, propagation, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, NodeTracerProvider, type SpanProcessor } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { Config } from '../config';
import { TraceIdsPropagator } from './trace-ids-propagator';

/** One process's (or one test platform's) tracer and the pipeline that exports its spans over OTLP/HTTP. */
export interface Tracing {
  tracer: Tracer;
  /** Where spans recorded elsewhere (the workflow sandbox) are handed in; see temporal-tracing.ts. */
  spanProcessor: SpanProcessor;
  resource: Resource;
  /** Exports every span ended so far. */
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let propagationInstalled = false;

/**
 * The tracer provider is not registered globally: each runtime passes its own tracer to the Temporal interceptors,
 * the HTTP spans and the judge, so two platforms in one process (tests) export to their own collectors. Only the
 * context manager and the propagator (W3C, writing ids only) are process-wide, installed once: they hold no configuration.
 */
function installPropagation(): void {
  if (propagationInstalled) return;
  propagationInstalled = true;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new TraceIdsPropagator());
}

/** The traces endpoint under an OTLP base URL, as the OpenTelemetry spec derives it from `OTEL_EXPORTER_OTLP_ENDPOINT`. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}

/** Tracing when `OTEL_EXPORTER_OTLP_ENDPOINT` is set (OTLP/HTTP with JSON bodies), else null: off by default. */
export function createTracing(config: Config): Tracing | null {
  if (!config.OTEL_EXPORTER_OTLP_ENDPOINT) return null;
  installPropagation();
  const resource = resourceFromAttributes({ [ATTR_SERVICE_NAME]: config.OTEL_SERVICE_NAME });
  const spanProcessor = new BatchSpanProcessor(
    new OTLPTraceExporter({ url: tracesUrl(config.OTEL_EXPORTER_OTLP_ENDPOINT) }),
  );
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  return {
    tracer: provider.getTracer('assay'),
    spanProcessor,
    resource,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}
