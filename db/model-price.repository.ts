import type { Db } from './database';
import { lookUpPrice, priceKeysOf, type ModelPrice, type PriceOf } from '../domain/scoring/model-prices';
import type { ModelPriceRow } from './tables/model-price.table';

/** A workspace's price override as stored, with numbers. */
export interface ModelPriceOverride extends ModelPrice {
  model: string;
  updated_at: Date;
}

const toOverride = (row: ModelPriceRow): ModelPriceOverride => ({
  model: row.model,
  input_per_mtok: Number(row.input_per_mtok),
  output_per_mtok: Number(row.output_per_mtok),
  updated_at: row.updated_at,
});

/** Every price override of a workspace (at most `modelPricesPerWorkspace`), by model. */
export async function listModelPriceOverrides(db: Db, workspaceId: string): Promise<ModelPriceOverride[]> {
  const rows = await db
    .selectFrom('model_prices')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('model')
    .execute();
  return rows.map(toOverride);
}

/** The workspace's overrides of the given models (keys as `priceKey` gives them), as a lookup map. */
export async function findModelPriceOverrides(
  db: Db,
  workspaceId: string,
  models: readonly string[],
): Promise<Map<string, ModelPrice>> {
  if (models.length === 0) return new Map();
  const rows = await db
    .selectFrom('model_prices')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('model', 'in', [...models])
    .execute();
  return new Map(rows.map((row) => [row.model, toOverride(row)]));
}

/**
 * Sets a workspace's price of a model; a new model is refused (`full`) when the workspace already holds `max`
 * overrides. The count and the insert share a transaction locked on the workspace, so two writers cannot pass it.
 */
export async function saveModelPrice(
  db: Db,
  workspaceId: string,
  model: string,
  price: ModelPrice,
  max: number,
): Promise<ModelPriceOverride | { full: number }> {
  return db.transaction().execute(async (trx) => {
    await trx.selectFrom('workspaces').select('id').where('id', '=', workspaceId).forUpdate().execute();
    const { count } = await trx
      .selectFrom('model_prices')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('workspace_id', '=', workspaceId)
      .where('model', '<>', model)
      .executeTakeFirstOrThrow();
    if (Number(count) >= max) return { full: Number(count) };
    const row = await trx
      .insertInto('model_prices')
      .values({ workspace_id: workspaceId, model, ...price })
      .onConflict((oc) => oc.columns(['workspace_id', 'model']).doUpdateSet({ ...price, updated_at: new Date() }))
      .returningAll()
      .executeTakeFirstOrThrow();
    return toOverride(row);
  });
}

/** Removes a workspace's price of a model; false when it had none. */
export async function deleteModelPrice(db: Db, workspaceId: string, model: string): Promise<boolean> {
  const result = await db
    .deleteFrom('model_prices')
    .where('workspace_id', '=', workspaceId)
    .where('model', '=', model)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A price lookup for the given models in a workspace: its overrides (one query), else the built-in table. */
export async function workspacePrices(db: Db, workspaceId: string, models: readonly string[]): Promise<PriceOf> {
  const overrides = await findModelPriceOverrides(db, workspaceId, [...new Set(models.flatMap(priceKeysOf))]);
  return (model) => lookUpPrice(model, overrides);
}
