import type { ColumnType } from 'kysely';

/** Slot `slot` of a workspace, leased to one case of one run until released, or until `expires_at` passes. */
export interface CaseSlotTable {
  workspace_id: string;
  slot: number;
  run_id: string;
  case_id: string;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

/** How many judge calls one case of one run has made (or is about to make). */
export interface CaseJudgeCallTable {
  run_id: string;
  case_id: string;
  calls: number;
}
