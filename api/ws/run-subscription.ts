import { FINAL_EVAL_RUN_STATUSES } from '../../db/tables/eval-run.table';
import type { FeedItem, FeedSink } from './run-feed';
import type { ServerMessage } from './relay-messages';
import type { RunSnapshot } from './run-snapshot';

const ENDED: ReadonlySet<string> = new Set(FINAL_EVAL_RUN_STATUSES);

/**
 * One socket's view of one run: items that arrive before the snapshot is sent are buffered, and every case result is
 * sent once (deduplicated by case id against the snapshot and what was sent since), so there is no gap and no repeat.
 */
export function createRunSubscription(
  runId: string,
  send: (message: ServerMessage) => void,
): FeedSink & { start(snapshot: RunSnapshot): void } {
  let buffer: FeedItem[] | null = [];
  const seen = new Set<string>();
  let ended = false;

  const sendResult = (result: RunSnapshot['results'][number]): boolean => {
    if (seen.has(result.case_id)) return false;
    seen.add(result.case_id);
    send({ type: 'case_result', run_id: runId, result });
    return true;
  };
  const sendEnd = (run: RunSnapshot['run']): void => {
    if (ended || !ENDED.has(run.status)) return;
    ended = true;
    send({ type: 'run_status', run_id: runId, status: run.status, summary: run.summary, error: run.error });
  };

  const apply = (item: FeedItem): void => {
    if (item.kind === 'case') {
      if (seen.has(item.result.case_id)) return;
      send({ type: 'progress', run_id: runId, scored: item.scored, total: item.total });
      sendResult(item.result);
    } else if (item.kind === 'status') {
      sendEnd(item.run);
    } else {
      const fresh = item.results.filter(sendResult).length;
      if (fresh > 0)
        send({ type: 'progress', run_id: runId, scored: item.run.scored_cases, total: item.run.total_cases });
      sendEnd(item.run);
    }
  };

  return {
    deliver(item) {
      if (buffer) buffer.push(item);
      else apply(item);
    },
    start(snapshot) {
      for (const result of snapshot.results) seen.add(result.case_id);
      ended = ENDED.has(snapshot.run.status);
      send({
        type: 'snapshot',
        run_id: runId,
        run: snapshot.run,
        results: snapshot.results,
        next_cursor: snapshot.next_cursor,
      });
      const pending = buffer ?? [];
      buffer = null;
      for (const item of pending) apply(item);
    },
  };
}
