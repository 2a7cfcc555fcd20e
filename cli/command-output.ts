import Table from 'cli-table3';

/** What a table shows for a value: `-` for none, JSON for an object, else its text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '-';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

const field = (item: object, name: string): unknown => (item as Record<string, unknown>)[name];

/** A table with one row per item and one column per field, in that order; `(none)` for no items. */
export function renderList(items: readonly object[], fields: readonly string[]): string {
  if (items.length === 0) return '(none)';
  const table = new Table({ head: [...fields], style: { head: [], border: [] } });
  for (const item of items) table.push(fields.map((name) => cellText(field(item, name))));
  return table.toString();
}

/** A two-column table of a record's fields, in its order. */
export function renderRecord(record: object): string {
  const table = new Table({ style: { head: [], border: [] } });
  for (const [name, value] of Object.entries(record)) table.push({ [name]: cellText(value) });
  return table.toString();
}

/** Prints a result on stdout: with `--json` as one line of JSON, else as `human` renders it. */
export function printResult<T>(value: T, json: boolean | undefined, human: (value: T) => string): void {
  process.stdout.write(`${json ? JSON.stringify(value) : human(value)}\n`);
}

/** Tells a person on stderr that a secret in the output is shown this once. */
export function warnShownOnce(what: string): void {
  process.stderr.write(`${what} is shown only this once: store it now.\n`);
}
