/**
 * Which expected item matches which actual item, one bit per pair (1,000 × 1,000 pairs take 125 KB). Scoring reads it
 * O(n·m) times, so it is a flat bit array rather than a predicate: V8 reads it inline at a fraction of a call's cost.
 */
export class PairTable {
  private readonly bits: Uint8Array;

  constructor(
    readonly rows: number,
    readonly cols: number,
  ) {
    this.bits = new Uint8Array(Math.ceil((rows * cols) / 8));
  }

  /** Records that item i of the first sequence matches item j of the second. */
  set(i: number, j: number): void {
    const at = i * this.cols + j;
    this.bits[at >> 3] |= 1 << (at & 7);
  }

  /** Whether item i of the first sequence matches item j of the second. */
  has(i: number, j: number): boolean {
    const at = i * this.cols + j;
    return (this.bits[at >> 3] & (1 << (at & 7))) !== 0;
  }
}
