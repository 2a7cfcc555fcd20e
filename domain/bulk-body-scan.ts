import { MAX_JSON_DEPTH } from './limit-checks';

/** Why a scanned body is refused: the item (a position in the body's list) or the whole body, and the reason. */
export interface ScanProblem {
  /** The list holding the item when it is a key of the top-level object (`cases`); absent: the body's own list. */
  list?: string;
  /** The item's position in its list; absent: the body as a whole. */
  item?: number;
  message: string;
}

/** What a scan found: the most items any one list of the body holds, and the first problem, if any. */
export interface BulkScan {
  items: number;
  problem?: ScanProblem;
}

/** A scan fed the body piece by piece as it arrives; once `refused`, the rest need not be read. */
export interface BulkScanner {
  write(bytes: Uint8Array): void;
  readonly refused: boolean;
  result(): BulkScan;
}

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const NEWLINE = 10;
const OPEN_LIST = 91;
const CLOSE_LIST = 93;
const OPEN_OBJECT = 123;
const CLOSE_OBJECT = 125;
const KEY_CHARS = 200;
const keyDecoder = new TextDecoder();
const TOO_DEEP = `must not nest deeper than ${MAX_JSON_DEPTH} levels`;

// The scan's state between two pieces of the body; `write` works on local copies (a tight loop over 32 MiB). It reads
// UTF-8 bytes: every byte of a multi-byte character is above 127, so none is taken for a bracket, quote or comma.
class Scan implements BulkScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** The kind of the top-level value: 1 a list, 2 an object, 0 not yet seen. */
  private top = 0;
  private key = '';
  private readingKey = false;
  private expectingKey = false;
  private listKey: string | undefined;
  private counting = false;
  private expectingItem: boolean;
  private count = 0;
  private items = 0;
  private problem: ScanProblem | undefined;

  constructor(
    private readonly jsonl: boolean,
    private readonly maxItems: number,
  ) {
    this.expectingItem = jsonl;
  }

  get refused(): boolean {
    return this.problem !== undefined || this.items > this.maxItems;
  }

  private keyText(bytes: Uint8Array, start: number, end: number): void {
    this.key = (this.key + keyDecoder.decode(bytes.subarray(start, end))).slice(0, KEY_CHARS);
  }

  private refuse(message: string, inItem: boolean): void {
    const list = this.listKey === undefined ? {} : { list: this.listKey };
    this.problem ??= inItem ? { ...list, item: this.count - 1, message } : { message };
  }

  write(bytes: Uint8Array): void {
    if (this.refused) return;
    const jsonl = this.jsonl;
    let { depth, inString, escaped, top, readingKey, expectingKey, counting, expectingItem, count } = this;
    let keyStart = 0;
    for (let i = 0; i < bytes.length; i++) {
      const code = bytes[i];
      if (jsonl && code === NEWLINE) {
        depth = 0;
        inString = escaped = false;
        expectingItem = true;
      } else if (inString) {
        if (escaped) escaped = false;
        else if (code === BACKSLASH) escaped = true;
        else if (code === QUOTE) {
          inString = false;
          if (readingKey) this.keyText(bytes, keyStart, i);
          readingKey = false;
        }
      } else if (code <= 32) {
        // whitespace (anything else below a space is not JSON, for the parser to say)
      } else if (code === COMMA) {
        if (counting && depth === (top === 1 ? 1 : 2)) expectingItem = true;
        if (top === 2 && depth === 1) expectingKey = true;
      } else if (code === COLON) {
        expectingKey = false;
      } else if (code === CLOSE_LIST || code === CLOSE_OBJECT) {
        if (!jsonl && depth === 2 && top === 2 && counting) {
          counting = false;
          this.listKey = undefined;
        }
        if (depth > 0) depth--;
      } else {
        if (expectingItem && (jsonl ? depth === 0 : counting && depth === (top === 1 ? 1 : 2))) {
          count++;
          if (count > this.items) this.items = count;
          expectingItem = false;
          this.count = count;
          if (code === OPEN_LIST) this.refuse('must be an object', true);
          if (this.refused) break;
        }
        if (code === OPEN_LIST || code === OPEN_OBJECT) {
          depth++;
          if (depth > MAX_JSON_DEPTH) {
            this.refuse(TOO_DEEP, jsonl || counting);
            break;
          }
          if (jsonl) continue;
          if (depth === 1) {
            top = code === OPEN_LIST ? 1 : 2;
            counting = expectingItem = top === 1;
            expectingKey = top === 2;
            count = 0;
          } else if (depth === 2 && top === 2 && code === OPEN_LIST) {
            counting = expectingItem = true;
            count = 0;
            this.listKey = this.key;
          }
        } else if (code === QUOTE) {
          inString = true;
          readingKey = !jsonl && top === 2 && depth === 1 && expectingKey;
          if (readingKey) {
            this.key = '';
            keyStart = i + 1;
            expectingKey = false;
          }
        }
      }
    }
    if (readingKey) this.keyText(bytes, keyStart, bytes.length);
    Object.assign(this, { depth, inString, escaped, top, readingKey, expectingKey, counting, expectingItem, count });
  }

  result(): BulkScan {
    return { items: this.items, ...(this.problem ? { problem: this.problem } : {}) };
  }
}

/**
 * Counts the items of a bulk body (JSON or JSONL) without building any value, so a body is refused for its item
 * count, its nesting or an item that is a list before it is parsed and walked (a walk visits every element: a 32 MiB
 * list of zeros is 16 million of them). Items are the elements of the top-level list, of each list directly under the
 * top-level object (a file's `cases`), or JSONL's non-blank lines. Linear and iterative, one pass over each piece; it
 * does not validate JSON (the parser that follows does). No streaming JSON parser is installed, hence this one.
 * Past `maxItems` items or a problem it stops reading (`refused`), so a refusal costs the few bytes before it.
 */
export function bulkScanner(jsonl: boolean, maxItems = Infinity): BulkScanner {
  return new Scan(jsonl, maxItems);
}
