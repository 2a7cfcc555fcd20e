import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequests } from '../lib/metrics';

/** The route label of a request no route matched (404s, and requests refused before routing such as a 401). */
export const UNMATCHED_ROUTE = '(unmatched)';

// The template a route was declared with (`/api/ai-agents/:agent`): a raw path would put ids in labels without bound.
function routeTemplate(req: Request): string {
  const path: unknown = (req.route as { path?: unknown } | undefined)?.path;
  return typeof path === 'string' ? `${req.baseUrl}${path}` : UNMATCHED_ROUTE;
}

/** Counts every answered request and its latency by method, route template and status. */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    const stop = httpRequestDuration.startTimer();
    res.on('finish', () => {
      const labels = { method: req.method, route: routeTemplate(req), status: String(res.statusCode) };
      httpRequests.inc(labels);
      stop(labels);
    });
    next();
  };
}
