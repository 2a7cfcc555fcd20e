import { defineQuery } from '@temporalio/workflow';
import type { BatchTimings } from '../domain/eval-batches';

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
  /** Cases settled per worker identity. */
  workers: Record<string, number>;
  /** Summed over every settled batch. */
  timings: BatchTimings;
}

/** `temporal workflow query --type progress`: the run's progress as its workflow counts it. */
export const progressQuery = defineQuery<EvalRunProgress>('progress');
