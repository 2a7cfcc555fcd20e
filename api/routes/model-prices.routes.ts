import { z } from 'zod';
import type { SortKey } from '../../db/keyset-page';
import { sortedPage } from '../../db/keyset-page';
import { deleteModelPrice, listModelPriceOverrides, saveModelPrice } from '../../db/model-price.repository';
import { LIMITS } from '../../domain/limits';
import { BUILT_IN_PRICES, priceKey } from '../../domain/scoring/model-prices';
import { providerForModel } from '../../domain/agent/model-provider';
import { invalidField, limitExceeded } from '../field-errors';
import { notFound } from '../http-error';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { route, type RouteSpec } from '../route';

const workspaceHeader = z.object({ 'x-workspace-id': z.string().uuid().optional() });
const MAX_PRICE = 10_000;
const perMtok = z.number().min(0).max(MAX_PRICE).describe('USD per million tokens');

const modelPriceJson = z.object({
  model: z.string(),
  input_per_mtok: z.number(),
  output_per_mtok: z.number(),
  source: z.enum(['built_in', 'workspace']),
  updated_at: z.string().nullable().describe('when the workspace set it; null for a built-in price'),
});
type ModelPriceJson = z.infer<typeof modelPriceJson>;

const MODEL_ORDER = {
  keys: [{ ref: 'model', kind: 'text' }] satisfies SortKey[],
  keyOf: (item: ModelPriceJson) => [item.model],
  compare: (a: string[], b: string[]) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0),
};

// The `{model}` segment (URL-encode a slash: `openai%2Fgpt-4o-mini`), as prices are keyed: trimmed, lower case.
function requireModel(param: string | undefined): string {
  const model = priceKey(param ?? '');
  if (model === '' || model.length > 200) throw invalidField('model', 'must be 1 to 200 characters');
  if (providerForModel(model) === null)
    throw invalidField(
      'model',
      `cannot derive a provider from "${model}": use a known model family or a provider/model id`,
    );
  return model;
}

/** Model prices: the built-in table merged with the workspace's overrides; writes set or remove an override. */
export const modelPriceRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/workspaces/current/model-prices',
    summary: 'List the prices runs are costed with (built-in, or the workspace override), by model',
    tag: 'evaluation',
    permission: 'evals:view',
    headers: workspaceHeader,
    query: pageQuery,
    response: dataPageJson(modelPriceJson),
    handler: async ({ query, auth, deps }) => {
      const overrides = await listModelPriceOverrides(deps.db, auth.workspaceId);
      const merged = new Map<string, ModelPriceJson>(
        Object.entries(BUILT_IN_PRICES).map(([model, price]) => [
          model,
          { model, ...price, source: 'built_in', updated_at: null },
        ]),
      );
      for (const { model, updated_at, ...price } of overrides)
        merged.set(model, { model, ...price, source: 'workspace', updated_at: updated_at.toISOString() });
      const sorted = [...merged.values()].sort((a, b) => MODEL_ORDER.compare([a.model], [b.model]));
      return dataPage(
        query,
        async (page) => sortedPage(sorted, MODEL_ORDER, page),
        (item) => item,
      );
    },
  }),
  route({
    method: 'put',
    path: '/api/workspaces/current/model-prices/:model',
    summary: "Set the workspace's price of a model (overrides the built-in one)",
    tag: 'evaluation',
    permission: 'integrations:manage',
    headers: workspaceHeader,
    body: z.object({ input_per_mtok: perMtok, output_per_mtok: perMtok }).strict(),
    response: z.object({ data: modelPriceJson }),
    handler: async ({ body, params, auth, deps }) => {
      const model = requireModel(params.model);
      const saved = await saveModelPrice(deps.db, auth.workspaceId, model, body, LIMITS.modelPricesPerWorkspace);
      if ('full' in saved)
        throw limitExceeded('model', 'modelPricesPerWorkspace', 'items', `the workspace prices ${saved.full} models`);
      const { updated_at, ...price } = saved;
      return { data: { ...price, source: 'workspace' as const, updated_at: updated_at.toISOString() } };
    },
  }),
  route({
    method: 'delete',
    path: '/api/workspaces/current/model-prices/:model',
    summary: "Remove the workspace's price of a model (the built-in one, if any, applies again)",
    tag: 'evaluation',
    permission: 'integrations:manage',
    headers: workspaceHeader,
    handler: async ({ params, auth, deps }) => {
      // Any id the workspace has no price of (one PUT would refuse included) is simply not found.
      if (!(await deleteModelPrice(deps.db, auth.workspaceId, priceKey(params.model ?? ''))))
        throw notFound('model price');
      return undefined;
    },
  }),
];
