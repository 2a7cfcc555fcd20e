import { z } from 'zod';
import { boundedArray } from '../bounded-schemas';

/** One run tag: 1–100 characters that fit a git SHA, a branch (`feature/x`), a version (`v1.2+build`) or `key:value`. */
export const runTagSchema = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9._:/@+-]+$/, 'may only hold letters, digits and . _ : / @ + -');

/** The tags a run is triggered with (duplicates are dropped by `distinctTags`). */
export const runTagsSchema = boundedArray(runTagSchema, 'tagsPerRun');

/** The tags in their first-given order, each once. */
export function distinctTags(tags: readonly string[]): string[] {
  return [...new Set(tags)];
}

/** What `?baseline=` names: a run by id, the newest completed run before this one, or the newest completed run with a tag. */
export type BaselineRef = { kind: 'run'; id: string } | { kind: 'last-completed' } | { kind: 'tag'; tag: string };

const TAG_PREFIX = 'tag:';

/** Reads `?baseline=`: `last-completed`, `tag:<name>` (a valid tag) or else a run id, left for the caller to check. */
export function parseBaselineRef(value: string): BaselineRef | { error: string } {
  if (value === 'last-completed') return { kind: 'last-completed' };
  if (!value.startsWith(TAG_PREFIX)) return { kind: 'run', id: value };
  const tag = runTagSchema.safeParse(value.slice(TAG_PREFIX.length));
  if (!tag.success) return { error: `tag: ${tag.error.issues[0].message}` };
  return { kind: 'tag', tag: tag.data };
}
