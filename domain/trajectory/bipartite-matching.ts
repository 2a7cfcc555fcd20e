import type { AlignedPair } from './lcs-alignment';
import type { PairTable } from './pair-table';

const UNREACHED = 0x7fffffff;

/**
 * A maximum matching between rows and columns (each used at most once) where `same` allows the pair, by
 * Hopcroft–Karp: a greedy start (each row takes its first free column), then shortest augmenting paths in phases,
 * O(√n) phases of O(n·m) each. Pairs come in row order. Memory is linear in the two counts.
 */
export function maximumMatching(same: PairTable): AlignedPair[] {
  const { rows, cols } = same;
  const colOfRow = new Int32Array(rows).fill(-1);
  const rowOfCol = new Int32Array(cols).fill(-1);
  for (let i = 0; i < rows; i++) {
    for (let j = 0; j < cols; j++) {
      if (rowOfCol[j] < 0 && same.has(i, j)) {
        [colOfRow[i], rowOfCol[j]] = [j, i];
        break;
      }
    }
  }
  const layer = new Int32Array(rows);
  // Layers rows by their distance from a free row along alternating paths; true when a free column is reachable.
  const layered = (): boolean => {
    const queue: number[] = [];
    for (let i = 0; i < rows; i++) {
      layer[i] = colOfRow[i] < 0 ? 0 : UNREACHED;
      if (colOfRow[i] < 0) queue.push(i);
    }
    let reachesFree = false;
    for (let head = 0; head < queue.length; head++) {
      const i = queue[head];
      for (let j = 0; j < cols; j++) {
        if (!same.has(i, j)) continue;
        const next = rowOfCol[j];
        if (next < 0) reachesFree = true;
        else if (layer[next] === UNREACHED) {
          layer[next] = layer[i] + 1;
          queue.push(next);
        }
      }
    }
    return reachesFree;
  };
  const augment = (i: number): boolean => {
    for (let j = 0; j < cols; j++) {
      if (!same.has(i, j)) continue;
      const next = rowOfCol[j];
      if (next < 0 || (layer[next] === layer[i] + 1 && augment(next))) {
        [colOfRow[i], rowOfCol[j]] = [j, i];
        return true;
      }
    }
    layer[i] = UNREACHED;
    return false;
  };
  while (layered()) {
    let grew = false;
    for (let i = 0; i < rows; i++) if (colOfRow[i] < 0 && augment(i)) grew = true;
    if (!grew) break;
  }
  const pairs: AlignedPair[] = [];
  for (let i = 0; i < rows; i++) if (colOfRow[i] >= 0) pairs.push([i, colOfRow[i]]);
  return pairs;
}
