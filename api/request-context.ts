import crypto from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../lib/logger';
import { HttpError } from './http-error';

/** Gives every request an id (a sane incoming X-Request-Id, else a new one) and logs it when it ends. */
export function requestContext(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const incoming = req.get('x-request-id');
    req.requestId = incoming && /^[\w.-]{1,64}$/.test(incoming) ? incoming : crypto.randomUUID();
    res.setHeader('X-Request-Id', req.requestId);
    const started = process.hrtime.bigint();
    // The path only: a query string may carry something a log must not hold.
    res.on('finish', () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger.info(
        { request_id: req.requestId, method: req.method, path: req.path, status: res.statusCode, ms },
        'request',
      );
    });
    next();
  };
}

/** 415 for a request body that is not JSON (a body an earlier parser read as text, such as a case import, passes). */
export function requireJsonBody(req: Request, _res: Response, next: NextFunction): void {
  const hasBody = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (hasBody && typeof req.body !== 'string' && !req.is('application/json')) {
    throw new HttpError(415, 'unsupported_media_type', 'request body must be application/json', {
      field: 'Content-Type',
    });
  }
  next();
}

/** 404 for a path holding an encoded NUL: no resource id or name can contain one (Postgres text cannot hold it). */
export function rejectNulInPath(req: Request, _res: Response, next: NextFunction): void {
  if (/%00/i.test(req.path)) throw new HttpError(404, 'not_found', 'route not found');
  next();
}
