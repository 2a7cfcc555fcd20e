import { CancellationScope, condition, setCurrentDetails, workflowInfo } from '@temporalio/workflow';
import { EVAL_BATCH_MAX, type CaseBatchOutcome } from '../domain/eval/eval-batches';
import type { CaseFeed } from './case-feed';
import { countBatch, progressDetails, type EvalRunProgress } from './eval-run-progress';

/** Cases one batch scores at once: wide enough to keep the judge busy, narrow enough for several lanes. */
export const LANE_WIDTH = 8;

/**
 * The widths of the window's lanes: they sum to the concurrency, none wider than LANE_WIDTH, and there are at least
 * two, so one lane's batch boundary (its result reported, the next batch dispatched) overlaps the other's work.
 */
export function laneWidths(concurrency: number): number[] {
  const lanes = Math.min(concurrency, Math.max(2, Math.ceil(concurrency / LANE_WIDTH)));
  return Array.from({ length: lanes }, (_, i) => Math.floor(concurrency / lanes) + (i < concurrency % lanes ? 1 : 0));
}

/**
 * How many cases the next batch takes: as many as fit (EVAL_BATCH_MAX), but spread so that every lane finishes its
 * last batch at about the same time instead of one lane scoring a whole batch alone at the end.
 */
export function batchSize(remaining: number, lanes: number): number {
  if (remaining <= 0) return EVAL_BATCH_MAX;
  const rounds = Math.ceil(remaining / (lanes * EVAL_BATCH_MAX));
  return Math.min(EVAL_BATCH_MAX, Math.max(1, Math.ceil(remaining / (lanes * rounds))));
}

/** Scores one batch (or one live case) in a lane of `width`, and says how it came out; see `FedBatch` for `carried`. */
export type ScoreBatch = (caseIds: string[], width: number, carried: boolean) => Promise<CaseBatchOutcome>;

/** How the window ended: every case settled, or handed over with the batches still in flight. */
export type WindowEnd = { handover: false } | { handover: true; inFlight: string[][] };

/** What a window runs: its lanes' total width, the feed of cases, and how one batch is scored. */
export interface WindowOptions {
  concurrency: number;
  summary?: string;
  /** History events after which the execution hands over to the next (continue-as-new). */
  historyBudget: number;
  feed: CaseFeed;
  progress: EvalRunProgress;
  score: ScoreBatch;
  single?: boolean;
  drainOnHandover?: boolean;
}

/** What the lanes of one window share: the batches in flight by issue order, counts, and why the lanes stop. */
interface WindowState {
  inFlight: Map<number, string[]>;
  issued: number;
  settled: number;
  running: number;
  fatal: { error: unknown } | undefined;
  closed: boolean;
  handover: boolean;
}

// A live case is a lane of its own: its agent run, not the judge, is what takes the time.
const widthsOf = (options: WindowOptions): number[] =>
  options.single ? Array.from({ length: options.concurrency }, () => 1) : laneWidths(options.concurrency);

// One size for the execution, from what is left when it starts: every lane then gets the same share of batches (a size
// recomputed per batch would shrink as lanes still busy are not counted, and spill a last round onto a few lanes).
function executionBatchSize({ progress, feed }: WindowOptions, lanes: number): number {
  const left = progress.total === null ? feed.known : progress.total - progress.scored - progress.inFlight;
  return batchSize(left, lanes);
}

// Only after a batch settled here: every execution makes progress, however small the budget.
function historyFull(state: WindowState, historyBudget: number): boolean {
  const info = workflowInfo();
  if (state.settled === 0) return false;
  return info.continueAsNewSuggested || info.historyLength >= historyBudget;
}

async function runLane(state: WindowState, options: WindowOptions, width: number, size: number): Promise<void> {
  const { feed, progress, score } = options;
  for (;;) {
    if (state.fatal || state.closed || state.handover) return;
    if (historyFull(state, options.historyBudget)) {
      state.handover = true;
      return;
    }
    const batch = await feed.take(options.single ? 1 : size);
    if (!batch) return;
    const { caseIds } = batch;
    const key = state.issued++;
    state.inFlight.set(key, caseIds);
    progress.inFlight += caseIds.length;
    try {
      const outcome = await score(caseIds, width, batch.carried);
      countBatch(progress, outcome);
      state.settled++;
      if (outcome.runClosed) state.closed = true;
    } finally {
      state.inFlight.delete(key);
      progress.inFlight -= caseIds.length;
      setCurrentDetails(progressDetails(progress, options.summary));
    }
  }
}

function windowEnd(state: WindowState, progress: EvalRunProgress): WindowEnd {
  if (!state.handover) return { handover: false };
  progress.handovers += 1;
  progress.carried += state.inFlight.size;
  return { handover: true, inFlight: [...state.inFlight.values()] };
}

/**
 * Keeps `concurrency` cases in flight across batch and page boundaries: each lane takes its next batch from the feed the
 * moment its last one settles. When the history reaches its budget the window hands over at once (no drain): the
 * batches still running are returned to be carried to the next execution. `drainOnHandover` waits for them instead
 * (live runs, whose cases are child workflows that would not outlive this execution).
 */
export async function runWindow(options: WindowOptions): Promise<WindowEnd> {
  const widths = widthsOf(options);
  const state: WindowState = {
    inFlight: new Map(),
    issued: 0,
    settled: 0,
    running: 0,
    fatal: undefined,
    closed: false,
    handover: false,
  };
  const size = executionBatchSize(options, widths.length);

  const scope = new CancellationScope();
  void scope.run(() =>
    Promise.all(
      widths.map(async (width) => {
        state.running++;
        try {
          await runLane(state, options, width, size);
        } catch (error) {
          state.fatal ??= { error };
        } finally {
          state.running--;
        }
      }),
    ),
  );
  await condition(
    () => state.fatal !== undefined || state.running === 0 || (state.handover && !options.drainOnHandover),
  );
  if (state.fatal) {
    // The batches still in flight are cancelled: their judge calls stop, what they scored is kept.
    scope.cancel();
    throw state.fatal.error;
  }
  return windowEnd(state, options.progress);
}
