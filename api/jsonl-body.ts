import express, { Router, type Request } from 'express';
import type { FieldProblem } from '../domain/field-problems';
import { parseJsonLines } from '../domain/json/json-lines';
import { LIMITS } from '../domain/limits';
import { HttpError } from './http-error';

/** The media types of a JSONL body (one JSON value a line). */
export const JSONL_TYPES = ['application/x-ndjson', 'application/jsonl'];

/** Whether the request's body is JSONL. */
export function isJsonlRequest(req: Request): boolean {
  return typeof req.is(JSONL_TYPES) === 'string';
}

/**
 * The one body reader of the bulk-import routes (`paths`, POST; a set's cases or conversations): a JSON or JSONL body
 * read as text up to `LIMITS.importBodyBytes` rather than `BODY_LIMIT` (413 above). Mounted after authentication and
 * before the API's JSON parser, which then skips it; the route parses it with `readBulkBody`.
 */
export function bulkBodies(paths: string[]): Router {
  const router = Router();
  router.post(paths, express.text({ type: ['application/json', ...JSONL_TYPES], limit: LIMITS.importBodyBytes }));
  return router;
}

/** What a bulk body holds: a JSON value, or JSONL's values; or the lines that are not JSON; or too many lines. */
export type BulkBody =
  | { jsonl: false; value: unknown }
  | { jsonl: true; value: unknown[] }
  | { problems: FieldProblem[] }
  | { tooMany: number };

/**
 * Parses the text `bulkBodies` read: JSONL (`JSONL_TYPES`) into its values, a bad line named `itemField(i)`; JSON
 * whole (not JSON: 400 `malformed_json`).
 */
export function readBulkBody(req: Request, itemField: (index: number) => string): BulkBody {
  const text = typeof req.body === 'string' ? req.body : '';
  if (isJsonlRequest(req)) {
    const lines = parseJsonLines(text, itemField);
    return 'values' in lines ? { jsonl: true, value: lines.values } : lines;
  }
  try {
    return { jsonl: false, value: JSON.parse(text) as unknown };
  } catch {
    throw new HttpError(400, 'malformed_json', 'request body is not valid JSON');
  }
}
