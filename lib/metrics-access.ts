import crypto from 'node:crypto';
import { metricsRegistry } from './metrics';

/** What a scrape of `/metrics` gets: the metrics, a 401 (token missing or wrong), or a 404 (not served here). */
export type MetricsAccess = 'allowed' | 'unauthorized' | 'hidden';

const digest = (text: string): Buffer => crypto.createHash('sha256').update(text).digest();

/**
 * With METRICS_TOKEN set, a scrape must send `Authorization: Bearer <token>` (compared in constant time); without
 * it, `/metrics` exists only on a process that only this machine can reach (`loopbackOnly`), else it is a 404.
 */
export function metricsAccess(
  token: string | undefined,
  loopbackOnly: boolean,
  authorization: string | undefined,
): MetricsAccess {
  if (!token) return loopbackOnly ? 'allowed' : 'hidden';
  return crypto.timingSafeEqual(digest(authorization ?? ''), digest(`Bearer ${token}`)) ? 'allowed' : 'unauthorized';
}

/** The registry in the Prometheus text format, with its content type. */
export async function renderMetrics(): Promise<{ contentType: string; body: string }> {
  return { contentType: metricsRegistry.contentType, body: await metricsRegistry.metrics() };
}
