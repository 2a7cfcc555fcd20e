import type { PairTable } from './pair-table';

/**
 * Longest common subsequence of two sequences, in memory linear in their lengths (besides the table of which pairs
 * match, a bit per pair: equal calls, or an expected call whose matchers accept an actual one).
 *
 * The alignment is the one a full (n+1)×(m+1) suffix table would give when walked from the start: take a match
 * whenever the two items match; otherwise drop the second sequence's symbol unless that loses length (so on a
 * tie earlier symbols of the first sequence keep their match). It is found Hirschberg-style without the table: one
 * pass of two table rows finds where that walk first enters the middle row of the first sequence, then each half is
 * aligned the same way. Passes over halves of the area each time, so time stays O(n·m) and memory O(n + m).
 */

/** A matched pair: index in the first sequence, index in the second. */
export type AlignedPair = readonly [first: number, second: number];

/** The matched pairs of the alignment described above, in order. */
export function lcsAlignment(same: PairTable): AlignedPair[] {
  const width = same.cols + 1;
  // Four rows of scratch space, shared by every step of the recursion (each uses a prefix of them).
  const scratch: Scratch = {
    below: new Int32Array(width),
    row: new Int32Array(width),
    reaches: new Int32Array(width),
    leaves: new Int32Array(width),
  };
  const pairs: AlignedPair[] = [];
  alignRange({ same, scratch, pairs }, 0, same.rows, 0, same.cols);
  return pairs;
}

interface Scratch {
  below: Int32Array;
  row: Int32Array;
  reaches: Int32Array;
  leaves: Int32Array;
}

interface Alignment {
  same: PairTable;
  scratch: Scratch;
  pairs: AlignedPair[];
}

function alignRange(alignment: Alignment, top: number, bottom: number, left: number, right: number): void {
  if (top === bottom || left === right) return;
  if (bottom - top === 1) {
    // One row: the walk skips second-sequence items until the first matching one.
    for (let j = left; j < right; j++) {
      if (alignment.same.has(top, j)) {
        alignment.pairs.push([top, j]);
        return;
      }
    }
    return;
  }
  const middle = (top + bottom) >> 1;
  const column = entryColumn(alignment, top, bottom, left, right, middle);
  alignRange(alignment, top, middle, left, column);
  alignRange(alignment, middle, bottom, column, right);
}

/**
 * The column at which the walk from (top, left) first reaches row `middle`. Computes the suffix table bottom-up two
 * rows at a time; from row `middle` upwards it also keeps, for every column c, where a walk entering the current row
 * at c enters row `middle` (composing each row's own step, which needs only that row and the one below).
 */
function entryColumn(
  { same, scratch }: Alignment,
  top: number,
  bottom: number,
  left: number,
  right: number,
  middle: number,
): number {
  const width = right - left;
  const { reaches, leaves } = scratch;
  let { below, row } = scratch;
  below.fill(0, 0, width + 1);
  row[width] = 0;
  for (let c = 0; c <= width; c++) reaches[c] = c;
  for (let i = bottom - 1; i >= top; i--) {
    for (let j = width - 1; j >= 0; j--) {
      row[j] = same.has(i, left + j) ? below[j + 1] + 1 : Math.max(below[j], row[j + 1]);
    }
    if (i < middle) {
      // leaves[c]: the column at which a walk entering row i at c enters row i + 1 (past the last column only down).
      leaves[width] = width;
      for (let j = width - 1; j >= 0; j--) {
        if (same.has(i, left + j)) leaves[j] = j + 1;
        else leaves[j] = row[j + 1] < row[j] ? j : leaves[j + 1];
      }
      // leaves[c] >= c, so updating in place from the left reads only entries not yet rewritten.
      for (let c = 0; c <= width; c++) reaches[c] = reaches[leaves[c]];
    }
    const done = row;
    row = below;
    below = done;
  }
  return left + reaches[0];
}
