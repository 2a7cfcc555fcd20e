import type { NextFunction, Request, Response } from 'express';
import { logError, type Logger } from '../lib/logger';
import type { AuditTrail } from './audit-trail';
import { HttpError } from './http-error';

interface BodyParserError {
  type?: string;
  status?: number;
}

/** Maps body-parser failures onto our error codes. */
function fromBodyParser(error: BodyParserError): HttpError | undefined {
  if (error.type === 'entity.parse.failed')
    return new HttpError(400, 'malformed_json', 'request body is not valid JSON');
  if (error.type === 'entity.too.large') return new HttpError(413, 'payload_too_large', 'request body is too large');
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') {
    return new HttpError(415, 'unsupported_media_type', 'unsupported body encoding');
  }
  return undefined;
}

/**
 * The one error middleware: every error body is `{ error: { code, message, details } }`; a 500 leaks nothing. The
 * request's audit entry (if it needs one) is written before the error response.
 */
export function errorHandler(logger: Logger, audit: AuditTrail) {
  return async (error: unknown, req: Request, res: Response, _next: NextFunction): Promise<void> => {
    const known =
      error instanceof HttpError
        ? error
        : error instanceof URIError
          ? new HttpError(400, 'malformed_path', 'the path is not valid percent-encoded UTF-8')
          : fromBodyParser(error as BodyParserError);
    await audit.record(req, known?.status ?? 500);
    if (known) {
      res.status(known.status).json(known.toJSON());
      return;
    }
    logger.error({ ...logError(error), request_id: req.requestId }, 'unhandled error');
    res
      .status(500)
      .json(new HttpError(500, 'internal', `internal error (request ${req.requestId ?? 'unknown'})`).toJSON());
  };
}
