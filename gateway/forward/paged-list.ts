import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import type { ForwardUpstream } from './upstream';

/** One page of an upstream list, in the upstream's own cursor. */
export interface UpstreamPage<T> {
  items: T[];
  nextCursor?: string;
}

const encode = (index: number, cursor?: string): string =>
  Buffer.from(JSON.stringify(cursor === undefined ? [index] : [index, cursor])).toString('base64url');

function decode(cursor: string | undefined, count: number): [number, string | undefined] {
  if (cursor === undefined) return [0, undefined];
  try {
    const [index, inner] = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as [unknown, unknown];
    if (Number.isInteger(index) && (index as number) >= 0 && (index as number) < count)
      if (inner === undefined || typeof inner === 'string') return [index as number, inner];
  } catch {
    // fall through to the error below
  }
  throw new McpError(ErrorCode.InvalidParams, 'cursor: not a cursor this gateway answered');
}

/**
 * A list across the upstreams that offer it, one upstream page per gateway page: the gateway's cursor names the
 * upstream and its cursor, so paging stays the upstreams' own (no list is gathered whole in the gateway).
 */
export async function listAcross<T>(
  upstreams: ForwardUpstream[],
  cursor: string | undefined,
  page: (upstream: ForwardUpstream, cursor: string | undefined) => Promise<UpstreamPage<T>>,
): Promise<{ items: T[]; nextCursor?: string }> {
  if (upstreams.length === 0) return { items: [] };
  const [index, inner] = decode(cursor, upstreams.length);
  const answer = await page(upstreams[index], inner);
  if (answer.nextCursor !== undefined) return { items: answer.items, nextCursor: encode(index, answer.nextCursor) };
  return index + 1 < upstreams.length
    ? { items: answer.items, nextCursor: encode(index + 1) }
    : { items: answer.items };
}
