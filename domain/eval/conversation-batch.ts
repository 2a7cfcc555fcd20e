import { LIMITS } from '../limits';

/** A problem with one item of a batch, named `items[<i>].<field>` (0-based). */
export interface BatchIssue {
  field: string;
  message: string;
}

/** A case of the eval set the batch names, by id or name. */
export interface BatchCase {
  id: string;
  name: string;
}

/** Whether a batch of `count` items is over the eval-set size (the API answers 413). */
export function batchTooLarge(count: number): boolean {
  return count > LIMITS.casesPerEvalSet;
}

/**
 * The name of a field of the batch body from its name in the array of items (dot-joined, as validation names it):
 * `3.session_input.message` → `items[3].session_input.message`; the array itself (`(body)`) is `items`.
 */
export function batchField(field: string): string {
  if (field === '(body)' || field === '') return 'items';
  const [index, ...rest] = field.split('.');
  if (!/^\d+$/.test(index)) return `items.${field}`;
  return [`items[${index}]`, ...rest].join('.');
}

/**
 * Resolves each item's `case` (an id or a name of a case of the set) to a case id. Every item that names no case, a
 * name that several cases share, or a case an earlier item already named is an issue; the answer is the case ids in
 * item order only when there is none.
 */
export function resolveBatchCases(
  refs: readonly string[],
  cases: readonly BatchCase[],
): { caseIds: string[] } | { issues: BatchIssue[] } {
  const byId = new Map(cases.map((c) => [c.id, c]));
  const byName = new Map<string, BatchCase[]>();
  for (const c of cases) byName.set(c.name, [...(byName.get(c.name) ?? []), c]);
  const issues: BatchIssue[] = [];
  const caseIds: string[] = [];
  const firstItem = new Map<string, number>();
  refs.forEach((ref, i) => {
    const field = `items[${i}].case`;
    const named = byId.get(ref) ?? byName.get(ref)?.[0];
    const sameName = byName.get(ref)?.length ?? 0;
    if (!named) return issues.push({ field, message: `${ref} is not a case of this eval set` });
    if (!byId.has(ref) && sameName > 1)
      return issues.push({ field, message: `${sameName} cases are named ${ref}: use the case id` });
    const earlier = firstItem.get(named.id);
    if (earlier !== undefined)
      return issues.push({ field, message: `case ${named.name} already has a conversation in items[${earlier}]` });
    firstItem.set(named.id, i);
    caseIds.push(named.id);
  });
  return issues.length ? { issues } : { caseIds };
}
