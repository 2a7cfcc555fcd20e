import fs from 'node:fs';
import { LIMITS } from '../domain/limits';

/** One conversation to score, as `POST …/runs/import/batch` takes it: an imported conversation plus its `case`. */
export interface ConversationItem {
  case: string;
  [field: string]: unknown;
}

/** The items of a conversations file and, for JSONL, the line each came from (to point at it in errors). */
export interface ConversationsFile {
  items: ConversationItem[];
  lines: number[] | null;
}

const MAX_CASE_REF_CHARS = 200;

function checkItem(value: unknown, where: string): ConversationItem {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error(`${where}: must be a JSON object (a conversation and its "case")`);
  const ref = (value as { case?: unknown }).case;
  if (typeof ref !== 'string' || ref.trim() === '' || ref.length > MAX_CASE_REF_CHARS)
    throw new Error(`${where}: "case" must be the id or name of a case of the eval set`);
  return value as ConversationItem;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new Error(`${where}: not valid JSON (${(error as Error).message})`);
  }
}

/** Reads a conversations file's text: a JSON array, or JSONL (one conversation a line, blank lines skipped). */
export function parseConversations(text: string, file: string): ConversationsFile {
  let parsed: ConversationsFile;
  if (text.trimStart().startsWith('[')) {
    const array = parseJson(text, file) as unknown[];
    parsed = { items: array.map((item, i) => checkItem(item, `${file} item ${i}`)), lines: null };
  } else {
    parsed = { items: [], lines: [] };
    text.split('\n').forEach((line, i) => {
      if (line.trim() === '') return;
      const where = `${file} line ${i + 1}`;
      parsed.items.push(checkItem(parseJson(line, where), where));
      parsed.lines?.push(i + 1);
    });
  }
  if (parsed.items.length === 0) throw new Error(`${file} has no conversations`);
  if (parsed.items.length > LIMITS.casesPerEvalSet)
    throw new Error(`${file} has ${parsed.items.length} conversations: at most ${LIMITS.casesPerEvalSet} (one a case)`);
  return parsed;
}

/** Reads and checks `--conversations <file>`. */
export function readConversationsFile(file: string): ConversationsFile {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat?.isFile()) throw new Error(`--conversations ${file}: no such file`);
  // One import request carries the whole file: refuse what the api would refuse before reading it.
  if (stat.size > LIMITS.importBodyBytes)
    throw new Error(`--conversations ${file}: larger than ${LIMITS.importBodyBytes} bytes (limit importBodyBytes)`);
  return parseConversations(fs.readFileSync(file, 'utf8'), file);
}

/** Rewrites the batch import's `items[<i>].<field>` in an error message to where that item is in the file. */
export function pointAtItems(message: string, file: ConversationsFile, name: string): string {
  return message.replace(/items\[(\d+)\](\.)?/g, (match, i: string, dot?: string) => {
    const line = file.lines ? file.lines[Number(i)] : Number(i);
    if (line === undefined) return match;
    return `${name} ${file.lines ? 'line' : 'item'} ${line}${dot ? ' › ' : ''}`;
  });
}

/** The cases of the set no conversation of the file names (by case id or name), in the order given. */
export function missingCases<C extends { id: string; name: string }>(cases: C[], items: ConversationItem[]): C[] {
  const named = new Set(items.map((item) => item.case));
  return cases.filter((c) => !named.has(c.id) && !named.has(c.name));
}
