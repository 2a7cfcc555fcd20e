import { GCProfiler, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// The tests run without --expose-gc; turning the flag on at run time gives a fresh context a `gc` function.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const usedBytes = (heap: { usedHeapSize: number; externalMemory: number }): number =>
  heap.usedHeapSize + heap.externalMemory;

/**
 * The most memory (JS heap plus typed-array backing stores) `work` held above what was live before it ran, and its
 * result. Garbage is collected first; a collection during `work` is read at its start, so the peak is seen either way.
 */
export function peakHeapGrowth<T>(work: () => T): { bytes: number; result: T } {
  collectGarbage();
  const before = process.memoryUsage();
  const baseline = before.heapUsed + before.external;
  const profiler = new GCProfiler();
  profiler.start();
  const result = work();
  const after = process.memoryUsage();
  const collections = profiler.stop().statistics.map((gc) => usedBytes(gc.beforeGC.heapStatistics));
  return { bytes: Math.max(after.heapUsed + after.external, ...collections) - baseline, result };
}
