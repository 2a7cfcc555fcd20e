import { context, propagation, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import {
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
} from '@opentelemetry/semantic-conventions';
import type { NextFunction, Request, Response } from 'express';

/** The matched route's template (`/api/ai-agents/:agent/…`), never the raw path; undefined when no route matched. */
function routeTemplate(req: Request): string | undefined {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : undefined;
}

/**
 * A server span per request, named `METHOD /route/:template` once routing knows the template, and active for
 * everything the request does (a workflow it starts carries it). An incoming W3C `traceparent` is continued.
 * Only the method, route template and status are recorded: a raw path or query string may hold what a trace must not.
 */
export function requestSpans(tracer: Tracer) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const parent = propagation.extract(context.active(), req.headers);
    const span = tracer.startSpan(
      req.method,
      { kind: SpanKind.SERVER, attributes: { [ATTR_HTTP_REQUEST_METHOD]: req.method } },
      parent,
    );
    const active = trace.setSpan(parent, span);
    // Body parsers resume the handlers from stream events, outside this call's async context: bind the streams.
    context.bind(active, req);
    context.bind(active, res);
    res.once('close', () => {
      const route = routeTemplate(req);
      if (route) span.updateName(`${req.method} ${route}`).setAttribute(ATTR_HTTP_ROUTE, route);
      span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, res.statusCode);
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    context.with(active, next);
  };
}
