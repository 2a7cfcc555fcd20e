import { sql, type RawBuilder, type SelectQueryBuilder } from 'kysely';

/** What a caller asks of a list: at most `limit` items after the position `cursor` names. */
export interface PageParams {
  limit: number;
  cursor?: string;
}

/** One page of a list, and the cursor of the next (null on the last page). */
export interface Page<T> {
  items: T[];
  nextCursor: string | null;
}

/** A cursor this list did not hand out (malformed, or of another shape). */
export class InvalidCursorError extends Error {}

/**
 * One column or expression of a list's order. `time` keys travel at microsecond precision as UTC text (a JS Date
 * would round to milliseconds and repeat or skip rows created in the same millisecond).
 */
export interface SortKey {
  ref: string | RawBuilder<unknown>;
  kind: 'time' | 'text' | 'uuid';
}

/** A list's order: keys that together are unique within the list, all in one direction. */
export interface KeysetOrder {
  keys: SortKey[];
  direction: 'asc' | 'desc';
}

const CREATED: SortKey[] = [
  { ref: 'created_at', kind: 'time' },
  { ref: 'id', kind: 'uuid' },
];
/** Oldest first, by `(created_at, id)`. */
export const OLDEST_FIRST: KeysetOrder = { keys: CREATED, direction: 'asc' };
/** Newest first, by `(created_at, id)`. */
export const NEWEST_FIRST: KeysetOrder = { keys: CREATED, direction: 'desc' };
/** By a `name` that is unique within the list. */
export const BY_NAME: KeysetOrder = { keys: [{ ref: 'name', kind: 'text' }], direction: 'asc' };

const TIME_TEXT = /^[1-9]\d{3}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

// Checked here rather than left to Postgres, so a forged value is a 422 and never a cast error (a 500).
const validValue: Record<SortKey['kind'], (value: string) => boolean> = {
  time: (value) => {
    const ms = TIME_TEXT.test(value) ? Date.parse(`${value.slice(0, 23)}Z`) : NaN;
    return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === value.slice(0, 23);
  },
  uuid: (value) => UUID_TEXT.test(value),
  text: (value) => !value.includes('\u0000'),
};

const encodeCursor = (values: string[]): string => Buffer.from(JSON.stringify(values)).toString('base64url');

function decodeCursor(cursor: string, keys: SortKey[]): string[] {
  let values: unknown;
  try {
    values = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidCursorError('is not a cursor of this list');
  }
  const fits =
    Array.isArray(values) &&
    values.length === keys.length &&
    values.every((value, i) => typeof value === 'string' && validValue[keys[i].kind](value));
  if (!fits) throw new InvalidCursorError('is not a cursor of this list');
  return values as string[];
}

const expression = (key: SortKey): RawBuilder<unknown> => (typeof key.ref === 'string' ? sql.ref(key.ref) : key.ref);
const asText = (key: SortKey): RawBuilder<unknown> =>
  key.kind === 'time'
    ? sql`to_char(${expression(key)} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
    : sql`${expression(key)}::text`;
const asValue = (key: SortKey, value: string): RawBuilder<unknown> =>
  key.kind === 'time' ? sql`${value}::timestamptz` : key.kind === 'uuid' ? sql`${value}::uuid` : sql`${value}`;

/**
 * Reads one keyset page of `query` in `order`: rows strictly after the cursor's position, one extra row to learn
 * whether another page follows. Unlike an offset, a page stays exact while rows are added or removed before it.
 */
export async function keysetPage<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: KeysetOrder,
  page: PageParams,
): Promise<Page<O>> {
  const { keys, direction } = order;
  let paged = query.select(sql<string>`json_build_array(${sql.join(keys.map(asText))})::text`.as('page_key'));
  if (page.cursor !== undefined) {
    const values = decodeCursor(page.cursor, keys);
    const after = direction === 'asc' ? sql.raw('>') : sql.raw('<');
    paged = paged.where(
      sql<boolean>`(${sql.join(keys.map(expression))}) ${after} (${sql.join(keys.map((key, i) => asValue(key, values[i])))})`,
    );
  }
  for (const key of keys) paged = paged.orderBy(expression(key), direction);
  // Kysely cannot resolve a selection added to a generic query, so the row type is stated.
  const rows = (await paged.limit(page.limit + 1).execute()) as Array<O & { page_key: string }>;
  const items = rows.slice(0, page.limit).map(({ page_key: _key, ...item }) => item as O);
  const last = rows.length > page.limit ? rows[page.limit - 1] : undefined;
  return { items, nextCursor: last ? encodeCursor(JSON.parse(last.page_key) as string[]) : null };
}

/**
 * One page of a list already sorted in memory by `compare` over the unique keys `keyOf` gives: the items strictly
 * after the cursor's position, with the same cursors and checks as `keysetPage`.
 */
export function sortedPage<T>(
  sorted: readonly T[],
  order: { keys: SortKey[]; keyOf: (item: T) => string[]; compare: (a: string[], b: string[]) => number },
  page: PageParams,
): Page<T> {
  let start = 0;
  if (page.cursor !== undefined) {
    const after = decodeCursor(page.cursor, order.keys);
    const next = sorted.findIndex((item) => order.compare(order.keyOf(item), after) > 0);
    start = next < 0 ? sorted.length : next;
  }
  const items = sorted.slice(start, start + page.limit);
  const more = start + page.limit < sorted.length;
  return { items, nextCursor: more ? encodeCursor(order.keyOf(items[items.length - 1])) : null };
}
