import { Router } from 'express';
import { servesOnlyLoopback } from '../../lib/loopback-host';
import { metricsAccess, renderMetrics } from '../../lib/metrics-access';
import type { AppDeps } from '../app-deps';
import { HttpError } from '../http-error';

/** `GET /metrics` in the Prometheus text format, outside /api auth: guarded by METRICS_TOKEN (see metricsAccess). */
export function metricsRouter(deps: Pick<AppDeps, 'config'>): Router {
  const router = Router();
  const loopbackOnly = servesOnlyLoopback(deps.config);
  router.get('/metrics', async (req, res) => {
    const access = metricsAccess(deps.config.METRICS_TOKEN, loopbackOnly, req.get('authorization'));
    if (access === 'hidden') throw new HttpError(404, 'not_found', 'route not found');
    if (access === 'unauthorized') {
      res.setHeader('WWW-Authenticate', 'Bearer');
      throw new HttpError(401, 'unauthorized', 'metrics need "Authorization: Bearer <METRICS_TOKEN>"');
    }
    const { contentType, body } = await renderMetrics();
    res.type(contentType).send(body);
  });
  return router;
}
