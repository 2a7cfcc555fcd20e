import { Context } from '@temporalio/activity';
import { recordCaseResults, type CaseResultInput } from '../../db/case-result.repository';
import type { Db } from '../../db/database';
import { PROGRESS_FLUSH_MAX } from '../../db/eval-progress';
import type { CaseStatus } from '../../domain/scoring/case-outcome';
import type { CaseBatchOutcome } from '../../domain/eval/eval-batches';
import { evalCasesScored } from '../../lib/metrics';

// A result waits at most this long for others to share its flush: progress stays live, writes stay few.
const FLUSH_EVERY_MS = 200;
// Heartbeats between flushes too, so a dead worker is noticed within the heartbeat timeout and cancellation arrives.
const HEARTBEAT_EVERY_MS = 5_000;

/** What a batch's attempts heartbeat: the ids of the cases they stored, which a retried attempt skips. */
export interface BatchHeartbeat {
  stored: string[];
}

/** The case ids a previous attempt of this activity heartbeat as stored (none on a first attempt). */
export function storedByEarlierAttempts(): string[] {
  const details = Context.current().info.heartbeatDetails as Partial<BatchHeartbeat> | undefined;
  return Array.isArray(details?.stored) ? details.stored.filter((id) => typeof id === 'string') : [];
}

/** A batch outcome with nothing counted yet. */
export function emptyOutcome(worker: string): CaseBatchOutcome {
  return {
    stored: 0,
    skipped: 0,
    passed: 0,
    failed: 0,
    error: 0,
    notRun: 0,
    runClosed: false,
    worker,
    timings: { loadMs: 0, scoreMs: 0, writeMs: 0 },
  };
}

/** Counts one case's status into the outcome. */
export function tally(outcome: CaseBatchOutcome, status: CaseStatus): void {
  if (status === 'skipped') outcome.notRun = (outcome.notRun ?? 0) + 1;
  else outcome[status]++;
}

/**
 * Stores results in flushes of at most `PROGRESS_FLUSH_MAX` (one insert and one NOTIFY each) and counts them into the
 * outcome: inserted rows as stored, rows another attempt stored meanwhile as skipped; a closed run takes nothing.
 */
export async function storeResults(
  db: Db,
  runId: string,
  results: CaseResultInput[],
  outcome: CaseBatchOutcome,
): Promise<string[]> {
  const storedIds: string[] = [];
  for (let i = 0; i < results.length && !outcome.runClosed; i += PROGRESS_FLUSH_MAX) {
    const chunk = results.slice(i, i + PROGRESS_FLUSH_MAX);
    const { inserted, runClosed } = await recordCaseResults(db, runId, chunk);
    outcome.runClosed = runClosed;
    const insertedIds = new Set(inserted.map((row) => row.case_id));
    for (const result of chunk) {
      if (runClosed) break;
      // Counted once per stored row: a row another attempt stored was counted by that attempt.
      if (insertedIds.has(result.case_id)) {
        outcome.stored++;
        evalCasesScored.inc({ status: result.status });
      } else outcome.skipped++;
      tally(outcome, result.status);
      storedIds.push(result.case_id);
    }
  }
  return storedIds;
}

/** The write buffer of one batch attempt. */
export interface ResultBuffer {
  /** Queues a result; it is written within `FLUSH_EVERY_MS`, or at once when a flush's worth is waiting. */
  add(result: CaseResultInput): void;
  /** The first write that failed, if any: the batch stops and fails with it. */
  failure(): unknown;
  /** Writes everything queued, stops the timers and throws a failed write. */
  close(): Promise<void>;
}

/**
 * Buffers a batch's results and writes them in flushes, one at a time, heartbeating the ids stored so far (those
 * carried from earlier attempts included) after each flush and every few seconds.
 */
export function createResultBuffer(
  db: Db,
  runId: string,
  outcome: CaseBatchOutcome,
  carried: readonly string[],
): ResultBuffer {
  const context = Context.current();
  const heartbeat: BatchHeartbeat = { stored: [...carried] };
  const beat = () => context.heartbeat(heartbeat);
  const pending: CaseResultInput[] = [];
  let writing: Promise<void> = Promise.resolve();
  let failed: unknown = undefined;
  let timer: NodeJS.Timeout | undefined;
  const beating = setInterval(beat, HEARTBEAT_EVERY_MS);

  const flush = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      while (pending.length > 0 && failed === undefined) {
        const chunk = pending.splice(0, PROGRESS_FLUSH_MAX);
        const started = performance.now();
        try {
          heartbeat.stored.push(...(await storeResults(db, runId, chunk, outcome)));
        } catch (error) {
          failed = error;
        }
        outcome.timings.writeMs += performance.now() - started;
        beat();
      }
    });
    return writing;
  };

  return {
    add(result) {
      pending.push(result);
      if (pending.length >= PROGRESS_FLUSH_MAX) void flush();
      else timer ??= setTimeout(() => void flush(), FLUSH_EVERY_MS);
    },
    failure: () => failed,
    async close() {
      try {
        await flush();
      } finally {
        clearInterval(beating);
      }
      if (failed !== undefined) throw failed;
    },
  };
}
