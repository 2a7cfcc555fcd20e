/** Most cases one batch-scoring activity takes: its ids travel in history, its results in at most a few flushes. */
export const EVAL_BATCH_MAX = 100;

/** What a batch of cases came to: counted by the activity, summed by the eval-run workflow for its progress. */
export interface CaseBatchOutcome {
  /** Results this call stored. */
  stored: number;
  /** Cases of the batch that already had a result (a retried or carried batch). */
  skipped: number;
  /** Statuses of the batch's cases, whether stored now or before. */
  passed: number;
  failed: number;
  error: number;
  /** Cases of the batch stored `skipped` (not scored; absent from batches of workers before skipped existed). */
  notRun?: number;
  /** The run stopped taking results (cancelled, failed, terminated): nothing more should be dispatched. */
  runClosed: boolean;
  /** The identity of the worker that ran the batch. */
  worker: string;
  /** Milliseconds summed over the batch's cases: database reads, scoring (judge calls included), result writes. */
  timings: BatchTimings;
}

/** Where a batch's time went, summed over its cases. */
export interface BatchTimings {
  loadMs: number;
  scoreMs: number;
  writeMs: number;
}
