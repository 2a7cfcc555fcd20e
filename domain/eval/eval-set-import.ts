import type { ImportCase, LocatedCase } from './eval-set-file.reader';
import type { FieldProblem } from '../field-problems';
import { jsonEqual } from '../json/json-equal';
import { CASE_EXTRAS } from './eval-fields';
import { DEFAULT_TRAJECTORY_MATCH } from '../trajectory/trajectory-modes';

/** A case the set already holds. */
export interface StoredCase extends ImportCase {
  id: string;
}

/** What an import does: cases to create, cases to update (by id) and how many are already as the file says. */
export interface ImportPlan {
  create: ImportCase[];
  update: Array<{ id: string; fields: ImportCase }>;
  unchanged: number;
}

const sameCase = (a: ImportCase, b: ImportCase): boolean =>
  a.name === b.name &&
  jsonEqual(a.session_input, b.session_input) &&
  jsonEqual(a.expected_trajectory, b.expected_trajectory) &&
  (a.trajectory_match ?? DEFAULT_TRAJECTORY_MATCH) === (b.trajectory_match ?? DEFAULT_TRAJECTORY_MATCH) &&
  a.expected_final_response === b.expected_final_response &&
  jsonEqual(a.rubrics, b.rubrics) &&
  (['turns', ...CASE_EXTRAS] as const).every((key) => jsonEqual(a[key] ?? null, b[key] ?? null));

/**
 * Upsert by case name: a name the set lacks is created, one it holds is updated unless every field is already equal.
 * Cases of the set the file does not name are left alone. A name the set holds twice (cases written before names
 * were matched) cannot say which case to update, so it is a problem naming the file's case.
 */
export function planCaseImport(
  existing: readonly StoredCase[],
  incoming: readonly LocatedCase[],
): ImportPlan | { problems: FieldProblem[] } {
  const byName = new Map<string, StoredCase[]>();
  for (const stored of existing) byName.set(stored.name, [...(byName.get(stored.name) ?? []), stored]);
  const plan: ImportPlan = { create: [], update: [], unchanged: 0 };
  const problems: FieldProblem[] = [];
  for (const { at, nameField, fields } of incoming) {
    const matches = byName.get(fields.name) ?? [];
    if (matches.length > 1)
      problems.push({
        field: `${at}.${nameField}`,
        message: `the eval set holds ${matches.length} cases named ${fields.name}; rename or delete all but one first`,
      });
    else if (matches.length === 0) plan.create.push(fields);
    else if (sameCase(matches[0], fields)) plan.unchanged += 1;
    else plan.update.push({ id: matches[0].id, fields });
  }
  return problems.length ? { problems } : plan;
}
