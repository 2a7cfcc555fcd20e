const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` can be compared with a uuid column (anything else would make Postgres raise). */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** A nullable jsonb value as a column write: SQL NULL for null or undefined, else its JSON text. */
export function jsonOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}
