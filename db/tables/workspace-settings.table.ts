import type { ColumnType, Selectable } from 'kysely';
import type { Provider } from '../../domain/agent/model-provider';

/** Per-workspace settings; `judge_model` null means no fixed judge model. */
export interface WorkspaceSettingsTable {
  workspace_id: string;
  judge_model: string | null;
  updated_at: ColumnType<Date, never, Date>;
}

/** A workspace's connection to an LLM provider; the key is in the credential vault under `credential_id`. */
export interface IntegrationTable {
  workspace_id: string;
  provider: Provider;
  base_url: string | null;
  key_hint: string;
  credential_id: string;
  created_at: ColumnType<Date, never, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type Integration = Selectable<IntegrationTable>;
