import { LIMITS } from '../domain/limits';
import type { ApiClient } from './api-client';

/** Every item of a paged `{ data, next_cursor }` list, read in the largest pages the API serves. */
export async function fetchAllPages<T>(api: ApiClient, path: string): Promise<T[]> {
  const items: T[] = [];
  const glue = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  do {
    const page: { data: T[]; next_cursor?: string | null } = await api.get(
      `${path}${glue}limit=${LIMITS.pageMax}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.data);
    cursor = page.next_cursor ?? null;
  } while (cursor);
  return items;
}
