import { z } from 'zod';
import type { caseResultJson, evalRunJson } from '../json/eval-run.json';

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
