import type { FieldProblem } from '../field-problems';
import { LIMITS } from '../limits';

/**
 * Splits JSONL (one JSON value a line; blank lines and `\r\n` endings allowed) into its values, in order. A line that
 * is not JSON is a problem named like the item it should have been (`itemField(i)`, `i` counting non-blank lines
 * from 0), every such line listed; more than `casesPerEvalSet` lines is `tooMany` (nothing parsed).
 */
export function parseJsonLines(
  text: string,
  itemField: (index: number) => string = (i) => `cases[${i}]`,
): { values: unknown[] } | { problems: FieldProblem[] } | { tooMany: number } {
  const lines = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (lines.length > LIMITS.casesPerEvalSet) return { tooMany: lines.length };
  const values: unknown[] = [];
  const problems: FieldProblem[] = [];
  lines.forEach((line, i) => {
    try {
      values.push(JSON.parse(line));
    } catch {
      problems.push({ field: itemField(i), message: 'the line is not valid JSON' });
    }
  });
  return problems.length ? { problems } : { values };
}
