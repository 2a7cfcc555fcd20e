import type { ColumnType } from 'kysely';

/** A lease on one of a workspace's case slots, held by one case of one run until released or expired. */
export interface CaseSlotTable {
  run_id: string;
  case_id: string;
  workspace_id: string;
  acquired_at: ColumnType<Date, never, never>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** How many judge calls one case of one run has made (or is about to make). */
export interface CaseJudgeCallTable {
  run_id: string;
  case_id: string;
  calls: number;
}
