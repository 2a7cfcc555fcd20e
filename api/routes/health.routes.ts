import { Router } from 'express';
import { sql } from 'kysely';
import type { AppDeps } from '../app-deps';

async function check(probe: () => Promise<unknown>): Promise<string> {
  try {
    await probe();
    return 'ok';
  } catch {
    return 'unreachable';
  }
}

/** Liveness and readiness (Postgres and Temporal reachable); the only routes without a token. */
export function healthRouter(deps: AppDeps): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const [postgres, temporal] = await Promise.all([
      check(() => sql`SELECT 1`.execute(deps.db)),
      check(() => deps.temporal.workflowService.getSystemInfo({})),
    ]);
    const ready = postgres === 'ok' && temporal === 'ok';
    res.status(ready ? 200 : 503).json({ status: ready ? 'ready' : 'not_ready', checks: { postgres, temporal } });
  });
  return router;
}
