import type { Db } from '../../db/database';
import { logError, type Logger } from '../../lib/logger';
import { isRunStatusEvent, type EvalProgressNotification } from '../../db/eval-progress';
import type { CaseResultJson, EvalRunJson } from './relay-messages';
import { readCaseResults, readRun, readRunWithAllResults } from './run-snapshot';

/** What a subscriber receives, in commit order: a recorded case, the run's end, or a re-read after a LISTEN gap. */
export type FeedItem =
  | { kind: 'case'; scored: number; total: number | null; result: CaseResultJson }
  | { kind: 'status'; run: EvalRunJson }
  | { kind: 'resync'; run: EvalRunJson; results: CaseResultJson[] };

/** A subscriber of one run. */
export interface FeedSink {
  deliver(item: FeedItem): void;
}

/** Fans the events of the process's one LISTEN out to the subscribers of each run. */
export interface RunFeed {
  add(runId: string, sink: FeedSink): void;
  remove(runId: string, sink: FeedSink): void;
  push(event: EvalProgressNotification): void;
  /** Re-reads every followed run (after LISTEN was re-established, events may have been missed). */
  resyncAll(): void;
  close(): void;
}

type Pending = { event: EvalProgressNotification } | { resync: string };

const MAX_BATCH = 1_000;
const RETRY_MS = { initial: 200, max: 5_000 };
const runOf = (pending: Pending): string => ('resync' in pending ? pending.resync : pending.event.run_id);

/**
 * Queues events in arrival (= commit) order and drains them in batches: one query per run for the batch's case rows,
 * shared by every socket following that run. A failed read is retried with the same batch, so nothing is skipped.
 */
export function createRunFeed(db: Db, logger: Logger): RunFeed {
  const sinks = new Map<string, Set<FeedSink>>();
  const queue: Pending[] = [];
  let draining = false;
  let closed = false;

  const resolve = async (batch: Pending[]): Promise<Array<{ runId: string; item: FeedItem }>> => {
    const caseIds = new Map<string, string[]>();
    for (const pending of batch) {
      if ('event' in pending && !isRunStatusEvent(pending.event) && sinks.has(pending.event.run_id)) {
        caseIds.set(pending.event.run_id, [...(caseIds.get(pending.event.run_id) ?? []), pending.event.case_id]);
      }
    }
    const rows = new Map<string, Map<string, CaseResultJson>>();
    for (const [runId, ids] of caseIds) rows.set(runId, await readCaseResults(db, runId, ids));
    const items: Array<{ runId: string; item: FeedItem }> = [];
    for (const pending of batch) {
      const runId = runOf(pending);
      if (!sinks.has(runId)) continue;
      if ('resync' in pending) {
        const current = await readRunWithAllResults(db, runId);
        if (current) items.push({ runId, item: { kind: 'resync', ...current } });
      } else if (isRunStatusEvent(pending.event)) {
        const run = await readRun(db, runId);
        if (run) items.push({ runId, item: { kind: 'status', run } });
      } else {
        const result = rows.get(runId)?.get(pending.event.case_id);
        if (result)
          items.push({
            runId,
            item: { kind: 'case', scored: pending.event.scored, total: pending.event.total, result },
          });
      }
    }
    return items;
  };

  const deliver = (runId: string, item: FeedItem): void => {
    for (const sink of [...(sinks.get(runId) ?? [])]) {
      try {
        sink.deliver(item);
      } catch (error) {
        logger.warn({ run_id: runId, ...logError(error) }, 'eval relay could not deliver to a subscriber');
      }
    }
  };

  const drain = async (): Promise<void> => {
    if (draining) return;
    draining = true;
    let delay = RETRY_MS.initial;
    try {
      while (queue.length > 0 && !closed) {
        const batch = queue.slice(0, MAX_BATCH);
        try {
          const items = await resolve(batch);
          queue.splice(0, batch.length);
          delay = RETRY_MS.initial;
          for (const { runId, item } of items) deliver(runId, item);
        } catch (error) {
          logger.warn({ ...logError(error), retry_ms: delay }, 'eval relay could not read recorded results; retrying');
          await new Promise((resume) => setTimeout(resume, delay));
          delay = Math.min(delay * 2, RETRY_MS.max);
        }
      }
    } finally {
      draining = false;
    }
  };

  const enqueue = (pending: Pending): void => {
    if (closed || !sinks.has(runOf(pending))) return;
    queue.push(pending);
    void drain();
  };

  return {
    add(runId, sink) {
      const set = sinks.get(runId) ?? new Set<FeedSink>();
      set.add(sink);
      sinks.set(runId, set);
    },
    remove(runId, sink) {
      const set = sinks.get(runId);
      set?.delete(sink);
      if (set?.size === 0) sinks.delete(runId);
    },
    push: (event) => enqueue({ event }),
    resyncAll() {
      for (const runId of sinks.keys()) enqueue({ resync: runId });
    },
    close() {
      closed = true;
      queue.length = 0;
      sinks.clear();
    },
  };
}
