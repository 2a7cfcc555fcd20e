import type { Request, Response } from 'express';
import { z } from 'zod';
import { InvalidCursorError, type Page, type PageParams } from '../db/keyset-page';
import { LIMITS } from '../domain/limits';
import { invalidField } from './field-errors';
import { parseOr422 } from './route';

/** `?limit=&cursor=` of every list endpoint: its RouteSpec `query`, so it is checked and documented alike. */
export const pageQuery = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(LIMITS.pageMax)
    .default(LIMITS.pageDefault)
    .meta({ description: `Items per page (default ${LIMITS.pageDefault}, at most ${LIMITS.pageMax}).` }),
  cursor: z.string().min(1).max(LIMITS.pageCursorChars).optional().meta({
    description:
      'Opaque position to continue from: `next_cursor` of the previous page (under `/api/v1`, the `cursor` of the `Link: <…>; rel="next"` header).',
  }),
});

/** Reads one page of a list from a repository. */
type ReadPage<T> = (page: PageParams) => Promise<Page<T>>;

async function readPage<T>(query: Record<string, unknown>, read: ReadPage<T>): Promise<Page<T>> {
  const page = parseOr422(pageQuery, query);
  try {
    return await read(page);
  } catch (error) {
    if (error instanceof InvalidCursorError) throw invalidField('cursor', error.message);
    throw error;
  }
}

/** A list under `/api`: `{ data: [...], next_cursor }` (null on the last page). */
export async function dataPage<T, J>(
  query: Record<string, unknown>,
  read: ReadPage<T>,
  toJson: (item: T) => J,
): Promise<{ data: J[]; next_cursor: string | null }> {
  const page = await readPage(query, read);
  return { data: page.items.map(toJson), next_cursor: page.nextCursor };
}

// Relative to the request (RFC 8288 allows it): the same path and parameters, with the next cursor.
function nextPageUrl(req: Request, cursor: string): string {
  const url = new URL(req.originalUrl, 'http://assay.invalid');
  url.searchParams.set('cursor', cursor);
  return `${url.pathname}${url.search}`;
}

/** A list under `/api/v1`: the spec's bare array, and the next page in `Link: <…>; rel="next"` (absent on the last). */
export async function linkedPage<T, J>(
  ctx: { query: Record<string, unknown>; req: Request; res: Response },
  read: ReadPage<T>,
  toJson: (item: T) => J,
): Promise<J[]> {
  const page = await readPage(ctx.query, read);
  if (page.nextCursor) ctx.res.setHeader('Link', `<${nextPageUrl(ctx.req, page.nextCursor)}>; rel="next"`);
  return page.items.map(toJson);
}

/** The body schema of an `/api` list of `item`. */
export function dataPageJson<T extends z.ZodType>(
  item: T,
): z.ZodObject<{ data: z.ZodArray<T>; next_cursor: z.ZodNullable<z.ZodString> }> {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}
