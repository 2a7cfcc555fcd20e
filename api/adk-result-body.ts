import express, { Router, type NextFunction, type Request, type Response } from 'express';
import { limitMessage } from '../domain/limit-checks';
import { LIMITS } from '../domain/limits';
import type { Permission } from '../domain/tenancy/permissions';
import { requirePermission, type AuthContext } from './auth';
import { HttpError } from './http-error';

const tooLarge = (): HttpError => {
  const message = `request body is too large: ${limitMessage('adkResultBytes', 'bytes')}`;
  const detail = { field: '(body)', message, limit: 'adkResultBytes', max: LIMITS.adkResultBytes };
  return new HttpError(413, 'payload_too_large', message, [detail]);
};

/**
 * The body reader of an ADK eval result import, mounted before the API's JSON parser (which then skips the body it
 * read): the route's permission first, so a caller who may not import makes the api read nothing; then JSON of up to
 * `LIMITS.adkResultBytes` rather than `BODY_LIMIT` (413 above), a top-level string included (ADK 1.x wrote the
 * document as a JSON string).
 */
export function adkResultBodies(route: { path: string; permission: Permission }): Router {
  const json = express.json({ limit: LIMITS.adkResultBytes, strict: false });
  const router = Router();
  router.post(route.path, (req: Request, res: Response, next: NextFunction) => {
    try {
      requirePermission(req.auth as AuthContext, route.permission);
      if (Number(req.get('content-length') ?? 0) > LIMITS.adkResultBytes) throw tooLarge();
    } catch (error) {
      res.set('Connection', 'close');
      throw error;
    }
    json(req, res, (error?: unknown) =>
      (error as { type?: string } | undefined)?.type === 'entity.too.large' ? next(tooLarge()) : next(error),
    );
  });
  return router;
}
