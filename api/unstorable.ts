import type { FieldProblem } from '../domain/field-problems';
import { MAX_JSON_DEPTH } from '../domain/limit-checks';

// Postgres text and jsonb hold neither U+0000 nor a lone UTF-16 surrogate (jsonb refuses `\ud800`, text silently
// turns it into U+FFFD), so either is a 422 naming the field rather than a 500 or a changed value.
function unstorableText(text: string): string | undefined {
  if (text.includes('\u0000')) return 'must not contain NUL characters';
  if (/\p{Cs}/u.test(text)) return 'must be well-formed Unicode (no lone surrogates)';
  return undefined;
}

/** A list or object met by the walk: where it stands (its parent and its key there) and how deep. */
interface Container {
  value: object;
  parent: Container | undefined;
  key: string;
  depth: number;
}

// The field a problem names: the keys from the root down to `container`, then `key`.
function fieldOf(container: Container, key?: string): string {
  const keys = key === undefined ? [] : [key];
  for (let at: Container | undefined = container; at?.parent; at = at.parent) keys.unshift(at.key);
  return keys.join('.') || '(body)';
}

/**
 * The first value of a parsed JSON body Postgres cannot store as given, or nested deeper than `MAX_JSON_DEPTH` (which
 * `JSON.parse` accepts, deep enough to overflow the stack of any later recursion). Iterative, and linear in the
 * body: a field name is built only for the problem it reports, never per element (a 32 MiB list has 16 million).
 */
export function unstorable(body: unknown): FieldProblem | undefined {
  const text = typeof body === 'string' ? unstorableText(body) : undefined;
  if (text) return { field: '(body)', message: text };
  const stack: Container[] =
    body !== null && typeof body === 'object' ? [{ value: body, parent: undefined, key: '', depth: 0 }] : [];
  for (let container = stack.pop(); container; container = stack.pop()) {
    if (container.depth >= MAX_JSON_DEPTH)
      return { field: fieldOf(container), message: `must not nest deeper than ${MAX_JSON_DEPTH} levels` };
    const list = Array.isArray(container.value) ? (container.value as unknown[]) : undefined;
    const keys = list ? undefined : Object.keys(container.value);
    const size = list ? list.length : (keys as string[]).length;
    for (let i = 0; i < size; i++) {
      const key = keys ? keys[i] : undefined;
      const value = list ? list[i] : (container.value as Record<string, unknown>)[key as string];
      const message =
        (key === undefined ? undefined : unstorableText(key)) ??
        (typeof value === 'string' ? unstorableText(value) : undefined);
      if (message) return { field: fieldOf(container, key ?? String(i)), message };
      if (value !== null && typeof value === 'object')
        stack.push({ value, parent: container, key: key ?? String(i), depth: container.depth + 1 });
    }
  }
  return undefined;
}
