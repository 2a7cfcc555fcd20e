import assert from 'node:assert/strict';
import type request from 'supertest';
import { LIMITS } from '../../domain/limits';

/** A listed item, identified by its id (or, for lists without one, its provider or linked server). */
export type ListedItem = { id?: string; provider?: string; mcp_server_id?: string };

/** The identity of a listed item. */
export const keyOf = (item: ListedItem): string =>
  item.id ?? item.provider ?? item.mcp_server_id ?? JSON.stringify(item);

/** Walks lists two items at a time, asserting each item comes once and in the order of one big page. */
export interface PageWalker {
  /** Every path walked so far. */
  walked: Set<string>;
  /** Walks an `/api` list with `limit=2` by `next_cursor`. */
  data(path: string, expected: number): Promise<ListedItem[]>;
  /** Walks an `/api/v1` list with `limit=2` by its `Link: <…>; rel="next"` headers; the body stays a bare array. */
  linked(path: string, expected: number): Promise<ListedItem[]>;
}

/** A walker whose requests go through `get` (the caller's app and token). */
export function pageWalker(get: (path: string) => Promise<request.Response>): PageWalker {
  const walked = new Set<string>();

  const assertOnce = (items: ListedItem[], expected: number, pages: number): void => {
    const keys = items.map(keyOf);
    assert.equal(new Set(keys).size, keys.length, 'no item twice');
    assert.equal(keys.length, expected, 'every item');
    assert.equal(pages, Math.max(1, Math.ceil(expected / 2)));
  };

  return {
    walked,
    async data(path: string, expected: number): Promise<ListedItem[]> {
      walked.add(path);
      const items: ListedItem[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res = await get(`${path}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        assert.equal(res.status, 200, res.text);
        assert.ok(res.body.data.length <= 2);
        assert.equal(res.headers.link, undefined, 'the /api lists page in the body');
        items.push(...res.body.data);
        cursor = res.body.next_cursor;
        pages++;
      } while (cursor !== null);
      assertOnce(items, expected, pages);
      const whole = await get(`${path}?limit=${LIMITS.pageMax}`);
      assert.deepEqual(whole.body.data.map(keyOf), items.map(keyOf), 'pages follow the order of one big page');
      assert.equal(whole.body.next_cursor, null);
      return items;
    },
    async linked(path: string, expected: number): Promise<ListedItem[]> {
      walked.add(path);
      const items: ListedItem[] = [];
      let next: string | undefined = `${path}?limit=2`;
      let pages = 0;
      while (next) {
        const res = await get(next);
        assert.equal(res.status, 200, res.text);
        assert.ok(Array.isArray(res.body) && res.body.length <= 2);
        items.push(...res.body);
        const link = res.headers.link as string | undefined;
        next = link ? /^<([^>]+)>; rel="next"$/.exec(link)?.[1] : undefined;
        if (link) assert.ok(next?.startsWith(`${path}?limit=2&cursor=`), link);
        pages++;
      }
      assertOnce(items, expected, pages);
      const whole = await get(`${path}?limit=${LIMITS.pageMax}`);
      assert.deepEqual(whole.body.map(keyOf), items.map(keyOf), 'pages follow the order of one big page');
      assert.equal(whole.headers.link, undefined, 'no Link header on the last page');
      return items;
    },
  };
}
