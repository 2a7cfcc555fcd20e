import type { z } from 'zod';

/** An invalid field of an input, named by its path (`cases[3].session_input.message`). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** A path as a field name: list positions in brackets, keys after dots. */
export function fieldPath(prefix: string, path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>(
    (name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)),
    prefix,
  );
}

/** Every issue of a zod error as a problem, under `prefix`. */
export function issuesAt(prefix: string, error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({ field: fieldPath(prefix, issue.path) || '(body)', message: issue.message }));
}
