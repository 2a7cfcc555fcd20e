import { maximumMatching } from './bipartite-matching';
import { lcsAlignment, type AlignedPair } from './lcs-alignment';
import type { PairTable } from './pair-table';

/** How a case's actual calls are held against its expected trajectory (`trajectory_match`); `lcs` is the default. */
export const TRAJECTORY_MATCH_MODES = ['exact', 'in_order', 'any_order', 'lcs', 'partial', 'f1'] as const;
export type TrajectoryMatch = (typeof TRAJECTORY_MATCH_MODES)[number];
export const DEFAULT_TRAJECTORY_MATCH: TrajectoryMatch = 'lcs';

/** The matched pairs of a mode and its score; see the README, "Trajectory match modes and argument matchers". */
export interface ModeAlignment {
  pairs: AlignedPair[];
  score: number;
  /** `f1` only: matched ÷ actual calls and matched ÷ expected calls (1 when there are none). */
  precision?: number;
  recall?: number;
}

/** `partial` only: the credit of an aligned pair, its expected call's `args_score` against the actual call. */
export type PairCredit = (expected: number, actual: number) => number;

const ratio = (matched: number, of: number): number => (of === 0 ? 1 : matched / of);

/**
 * - `exact`: position by position (expected i against actual i); matched ÷ max(expected, actual).
 * - `in_order`: the longest in-order alignment; matched ÷ expected (extra calls cost nothing).
 * - `any_order`: the largest one-to-one pairing in any order; matched ÷ expected (extra calls cost nothing).
 * - `lcs`: the longest in-order alignment; matched ÷ max(expected, actual).
 * - `partial`: `same` pairs calls by tool name (and server) alone; the longest in-order alignment of it, each pair
 *   earning its `credit` (the expected call's args_score); Σ credit ÷ max(expected, actual).
 * - `f1`: the largest one-to-one pairing in any order; the F1 of precision (matched ÷ actual) and recall (matched ÷
 *   expected), which is 2·matched ÷ (expected + actual).
 * Each scores 1.0 exactly when its rule holds, and 1.0 for nothing expected and nothing called.
 */
export function alignByMode(mode: TrajectoryMatch, same: PairTable, credit?: PairCredit): ModeAlignment {
  const [expected, actual] = [same.rows, same.cols];
  const longest = Math.max(expected, actual);
  if (mode === 'f1') {
    const pairs = maximumMatching(same);
    const [precision, recall] = [ratio(pairs.length, actual), ratio(pairs.length, expected)];
    return { pairs, score: ratio(2 * pairs.length, expected + actual), precision, recall };
  }
  if (mode === 'partial') {
    const pairs = lcsAlignment(same);
    const earned = pairs.reduce((sum, [i, j]) => sum + (credit ? credit(i, j) : 1), 0);
    return { pairs, score: ratio(earned, longest) };
  }
  if (mode === 'exact') {
    const pairs: AlignedPair[] = [];
    for (let i = 0; i < Math.min(expected, actual); i++) if (same.has(i, i)) pairs.push([i, i]);
    return { pairs, score: ratio(pairs.length, longest) };
  }
  if (mode === 'any_order') {
    const pairs = maximumMatching(same);
    return { pairs, score: ratio(pairs.length, expected) };
  }
  const pairs = lcsAlignment(same);
  return { pairs, score: ratio(pairs.length, mode === 'in_order' ? expected : longest) };
}
