import { CancelledFailure, Context } from '@temporalio/activity';
import { isRunOpen } from '../../db/eval-run.repository';
import type { CaseBatchOutcome } from '../../domain/eval/eval-batches';
import type { ActivityDeps } from '../platform/activity-deps';

// The batch re-reads whether its run is open in the background this often (one primary-key read per batch), so a
// batch that outlived its run's cancellation stops starting cases within this long, and no lane waits for the read...
const RUN_REFRESH_MS = 200;
// ...unless the last read is older than this (the database is slow): then the lane waits for a fresh one.
const RUN_STALE_MS = 1_000;
// How often a batch whose workflow went away (NOT_FOUND) looks whether its run is still open.
const ORPHAN_CHECK_MS = 1_000;

/** What the batch knows of its run while it scores: whether it still takes results, and the batch's abort. */
export interface RunWatch {
  /** Aborted when the activity is cancelled, or once its run closed after its workflow went away (NOT_FOUND). */
  readonly signal: AbortSignal;
  /** Stops the batch (a fatal failure): every lane's judge calls abort. */
  abort(reason: unknown): void;
  /** Waits for a fresh read of whether the run is open only when the background one is stale; a closed run sets `outcome.runClosed`. */
  fresh(): Promise<void>;
  /** Stops the timers. */
  stop(): void;
}

/**
 * Follows the activity's cancellation. Reason NOT_FOUND (the execution that started the batch continued as new, or
 * closed) does not abort: the batch goes on while its run is open, checked every `ORPHAN_CHECK_MS`, and aborts once it
 * is not (a cancelled or terminated run). Any other reason (run cancelled, timed out, worker shutdown) aborts at once.
 */
export function watchRun(deps: ActivityDeps, runId: string, outcome: CaseBatchOutcome): RunWatch {
  const controller = new AbortController();
  let checkedAt = performance.now();
  let checking: Promise<void> | null = null;
  let orphaned: NodeJS.Timeout | undefined;
  const check = (): Promise<void> =>
    (checking ??= isRunOpen(deps.db, runId)
      .then((open) => {
        checkedAt = performance.now();
        if (!open) outcome.runClosed = true;
      })
      .catch(() => undefined)
      .finally(() => (checking = null)));

  const cancelled = Context.current().cancellationSignal;
  const follow = () => {
    const reason: unknown = cancelled.reason;
    if (!(reason instanceof CancelledFailure && reason.message === 'NOT_FOUND')) return controller.abort(reason);
    const abortIfClosed = () =>
      void check().then(() => {
        if (outcome.runClosed) controller.abort(reason);
      });
    abortIfClosed();
    orphaned = setInterval(abortIfClosed, ORPHAN_CHECK_MS);
  };
  if (cancelled.aborted) follow();
  else cancelled.addEventListener('abort', follow, { once: true });
  const refresh = setInterval(() => void check(), RUN_REFRESH_MS);

  return {
    signal: controller.signal,
    abort: (reason) => controller.abort(reason),
    fresh: () => (performance.now() - checkedAt > RUN_STALE_MS ? check() : Promise.resolve()),
    stop() {
      clearInterval(refresh);
      clearInterval(orphaned);
      cancelled.removeEventListener('abort', follow);
    },
  };
}
