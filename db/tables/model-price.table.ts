import type { ColumnType, Selectable } from 'kysely';

/** A workspace's price for a model (overrides the built-in one); `numeric` columns are read as text. */
export interface ModelPriceTable {
  workspace_id: string;
  /** The model id as `priceKey` normalises it. */
  model: string;
  input_per_mtok: ColumnType<string, number, number>;
  output_per_mtok: ColumnType<string, number, number>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export type ModelPriceRow = Selectable<ModelPriceTable>;
