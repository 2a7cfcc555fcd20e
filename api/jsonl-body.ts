import express, { Router, type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { bulkScanner, type BulkScan, type BulkScanner } from '../domain/bulk-body-scan';
import type { FieldProblem } from '../domain/field-problems';
import { parseJsonLines } from '../domain/json/json-lines';
import { limitMessage } from '../domain/limit-checks';
import { LIMITS } from '../domain/limits';
import type { Permission } from '../domain/tenancy/permissions';
import { requirePermission, type AuthContext } from './auth';
import { HttpError } from './http-error';

/** The media types of a JSONL body (one JSON value a line). */
export const JSONL_TYPES = ['application/x-ndjson', 'application/jsonl'];

/** Whether the request's body is JSONL. */
export function isJsonlRequest(req: Request): boolean {
  return typeof req.is(JSONL_TYPES) === 'string';
}

/** A bulk-import route: its path (POST) and the permission checked before its body is read. */
export interface BulkRoute {
  path: string;
  permission: Permission;
}

// What the scan of each bulk body found, for `readBulkBody`; a refused body's text is not kept.
const scans = new WeakMap<Request, BulkScan>();

const tooLarge = (): HttpError => {
  const message = `request body is too large: ${limitMessage('importBodyBytes', 'bytes')}`;
  const detail = { field: '(body)', message, limit: 'importBodyBytes', max: LIMITS.importBodyBytes };
  return new HttpError(413, 'payload_too_large', message, [detail]);
};

// Reads the body as it arrives, each piece scanned (`bulkScanner`) before it is kept. Resolves with the pieces when the
// body has ended, or at once when the scan refuses it: the rest is never read (`bulkBodies` closes the connection).
function readScanned(req: Request, scanner: BulkScanner): Promise<Buffer[]> {
  return new Promise((resolve, reject) => {
    const pieces: Buffer[] = [];
    let bytes = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.pause();
    };
    const onData = (piece: Buffer): void => {
      bytes += piece.length;
      if (bytes > LIMITS.importBodyBytes) {
        stop();
        return reject(tooLarge());
      }
      scanner.write(piece);
      if (!scanner.refused) return void pieces.push(piece);
      stop();
      resolve([]);
    };
    req.on('data', onData);
    req.once('end', () => resolve(pieces));
    req.once('error', reject);
  });
}

async function readBulk(req: Request): Promise<void> {
  const sent = Number(req.get('content-length') ?? 0) > 0 || req.get('transfer-encoding') !== undefined;
  if (!sent || !req.is(['application/json', ...JSONL_TYPES])) return;
  const encoding = req.get('content-encoding') ?? 'identity';
  const charset = /;\s*charset="?([^";\s]+)/i.exec(req.get('content-type') ?? '')?.[1].toLowerCase() ?? 'utf-8';
  if (encoding.toLowerCase() !== 'identity' || !['utf-8', 'utf8'].includes(charset))
    throw new HttpError(415, 'unsupported_media_type', 'unsupported body encoding');
  if (Number(req.get('content-length') ?? 0) > LIMITS.importBodyBytes) throw tooLarge();
  const scanner = bulkScanner(isJsonlRequest(req), LIMITS.casesPerEvalSet);
  const pieces = await readScanned(req, scanner);
  scans.set(req, scanner.result());
  req.body = scanner.refused ? '' : Buffer.concat(pieces).toString('utf8');
}

/**
 * The one body reader of the bulk-import routes (a set's cases or conversations), mounted after authentication and
 * before the API's JSON parser (which then skips the body it read): the route's permission first, so a caller who may
 * not import makes the api read nothing (the connection is closed after the answer); then a JSON or JSONL body of up to `LIMITS.importBodyBytes` rather than
 * `BODY_LIMIT` (413 above), counted as it arrives. The route parses it with `readBulkBody`.
 */
export function bulkBodies(routes: readonly BulkRoute[]): Router {
  const router = Router();
  for (const { path, permission } of routes)
    router.post(path, async (req: Request, res: Response, next: NextFunction) => {
      try {
        requirePermission(req.auth as AuthContext, permission);
        await readBulk(req);
      } catch (error) {
        // Refused before the body was read: the rest of it is not read either.
        res.set('Connection', 'close');
        throw error;
      }
      if (!req.complete) res.set('Connection', 'close');
      next();
    });
  return router;
}

/** The API's JSON parser (up to `limit`), leaving alone a body `bulkBodies` took (it may still be arriving, unread). */
export function jsonBodies(limit: string): RequestHandler {
  const json = express.json({ limit, strict: true });
  return (req, res, next) => (scans.has(req) ? next() : json(req, res, next));
}

/** What a bulk body holds: a JSON value, or JSONL's values; or the lines that are not JSON (or items the scan
 * refused); or too many items (`atLeast`: the scan stopped reading at that many). */
export type BulkBody =
  | { jsonl: false; value: unknown }
  | { jsonl: true; value: unknown[] }
  | { problems: FieldProblem[] }
  | { tooMany: number; atLeast?: true };

// A refusal of the scan, its item named `itemField(i)` (or, in a file's list, `<list>[i]`).
function refusal(scan: BulkScan | undefined, itemField: (index: number) => string): BulkBody | undefined {
  if (!scan) return undefined;
  if (scan.items > LIMITS.casesPerEvalSet) return { tooMany: scan.items, atLeast: true };
  const problem = scan.problem;
  if (!problem) return undefined;
  const field =
    problem.item === undefined ? '(body)' : problem.list ? `${problem.list}[${problem.item}]` : itemField(problem.item);
  return { problems: [{ field, message: problem.message }] };
}

/**
 * Parses the text `bulkBodies` read (first, what its scan refused): JSONL (`JSONL_TYPES`) into its values, a bad line named `itemField(i)`; JSON
 * whole (not JSON: 400 `malformed_json`). A blank body is the `empty` problem when one is given.
 */
export function readBulkBody(req: Request, itemField: (index: number) => string, empty?: FieldProblem): BulkBody {
  const refused = refusal(scans.get(req), itemField);
  if (refused) return refused;
  const text = typeof req.body === 'string' ? req.body : '';
  if (empty && text.trim() === '') return { problems: [empty] };
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
