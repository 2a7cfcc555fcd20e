/** A plain pass over a text: one read of every UTF-16 unit, the cheapest thing any detector must do. */
export function plainScan(text: string): number {
  let sum = 0;
  for (let i = 0; i < text.length; i++) sum = (sum + text.charCodeAt(i)) | 0;
  return sum;
}

function fastestMs(work: () => unknown, runs: number): number {
  let best = Infinity;
  for (let run = 0; run < runs; run++) {
    const started = process.hrtime.bigint();
    work();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / 1e6);
  }
  return best;
}

/**
 * How many plain scans of `text` one `work` on it costs, both timed in this run (fastest of a few runs each, so a
 * busy machine slows both alike). A linear detector costs a bounded multiple; a quadratic one grows with the text.
 */
export function costInPlainScans(text: string, work: () => unknown, runs = 3): number {
  const scan = fastestMs(() => plainScan(text), 20);
  return fastestMs(work, runs) / scan;
}
