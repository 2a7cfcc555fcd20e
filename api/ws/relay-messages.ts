import { z } from 'zod';
import type { EvalProgressEvent } from '../../db/case-result.repository';
import type { EvalRunStatusEvent } from '../../db/eval-run.repository';
import type { caseResultJson, evalRunJson } from '../eval-run.json';

/** What a client may send: follow a run, or stop following it. */
export const clientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('subscribe'), run_id: z.string().min(1).max(100) }),
  z.object({ type: z.literal('unsubscribe'), run_id: z.string().min(1).max(100) }),
]);

export type EvalRunJson = z.infer<typeof evalRunJson>;
export type CaseResultJson = z.infer<typeof caseResultJson>;

/** What the relay sends: a snapshot per subscription, then progress and results as recorded, then the run's end. */
export type ServerMessage =
  | { type: 'snapshot'; run_id: string; run: EvalRunJson; results: CaseResultJson[]; next_cursor: string | null }
  | { type: 'progress'; run_id: string; scored: number; total: number | null }
  | { type: 'case_result'; run_id: string; result: CaseResultJson }
  | {
      type: 'run_status';
      run_id: string;
      status: EvalRunJson['status'];
      summary: EvalRunJson['summary'];
      error: string | null;
    }
  | { type: 'unsubscribed'; run_id: string }
  | { type: 'error'; code: string; message: string; run_id?: string };

/** A notification read from the progress channel. */
export type RelayEvent = EvalProgressEvent | EvalRunStatusEvent;

const progressEvent = z.object({
  run_id: z.string(),
  workspace_id: z.string(),
  scored: z.number(),
  total: z.number().nullable(),
  case_id: z.string(),
  status: z.enum(['passed', 'failed', 'error']),
});
const runStatusEvent = z.object({
  run_id: z.string(),
  workspace_id: z.string(),
  type: z.literal('run_status'),
  status: z.enum(['completed', 'failed', 'cancelled']),
});

/** Parses a NOTIFY payload; undefined for anything the relay does not understand. */
export function parseRelayEvent(payload: string | undefined): RelayEvent | undefined {
  try {
    const value: unknown = JSON.parse(payload ?? '');
    const parsed = runStatusEvent.safeParse(value);
    if (parsed.success) return parsed.data;
    const progress = progressEvent.safeParse(value);
    return progress.success ? progress.data : undefined;
  } catch {
    return undefined;
  }
}

/** True for an event announcing the end of a run. */
export function isRunStatusEvent(event: RelayEvent): event is EvalRunStatusEvent {
  return 'type' in event && event.type === 'run_status';
}
