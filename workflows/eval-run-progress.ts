import { defineQuery } from '@temporalio/workflow';
import type { BatchTimings, CaseBatchOutcome } from '../domain/eval/eval-batches';

/** What the eval-run workflow reports to operators (the `progress` query); users read the HTTP API and the relay. */
export interface EvalRunProgress {
  total: number | null;
  scored: number;
  passed: number;
  failed: number;
  error: number;
  /** Cases in batches dispatched and not yet settled. */
  inFlight: number;
  /** Batches settled so far, across continue-as-new. */
  batches: number;
  /** Continue-as-new handovers so far, and the in-flight batches they carried (re-dispatched, never drained). */
  handovers: number;
  carried: number;
  /** Cases settled per worker identity. */
  workers: Record<string, number>;
  /** Summed over every settled batch. */
  timings: BatchTimings;
}

/** `temporal workflow query --type progress`: the run's progress as its workflow counts it. */
export const progressQuery = defineQuery<EvalRunProgress>('progress');

/** Progress before any case is settled. */
export function startingProgress(total: number | null): EvalRunProgress {
  return {
    total,
    scored: 0,
    passed: 0,
    failed: 0,
    error: 0,
    inFlight: 0,
    batches: 0,
    handovers: 0,
    carried: 0,
    workers: {},
    timings: { loadMs: 0, scoreMs: 0, writeMs: 0 },
  };
}

/** Counts one settled batch in; a carried batch's cases are counted only by the execution that settles it. */
export function countBatch(progress: EvalRunProgress, outcome: CaseBatchOutcome): void {
  const settled = outcome.passed + outcome.failed + outcome.error + (outcome.notRun ?? 0);
  progress.passed += outcome.passed;
  progress.failed += outcome.failed;
  progress.error += outcome.error;
  progress.scored += settled;
  progress.batches += 1;
  progress.workers[outcome.worker] = (progress.workers[outcome.worker] ?? 0) + settled;
  progress.timings.loadMs += outcome.timings.loadMs;
  progress.timings.scoreMs += outcome.timings.scoreMs;
  progress.timings.writeMs += outcome.timings.writeMs;
}

/**
 * The workflow's current details in the Temporal UI (markdown), under the run's summary line: a continued execution has
 * no static summary of its own (continue-as-new cannot set one), so the details carry it.
 */
export function progressDetails(progress: EvalRunProgress, summary?: string): string {
  const of = progress.total === null ? '' : ` of ${progress.total}`;
  return (
    (summary ? `${summary}\n\n` : '') +
    `**${progress.scored}${of} cases scored**: ${progress.passed} passed, ${progress.failed} failed, ` +
    `${progress.error} error; ${progress.inFlight} in flight, ${progress.batches} batches on ` +
    `${Object.keys(progress.workers).length} worker(s)`
  );
}
