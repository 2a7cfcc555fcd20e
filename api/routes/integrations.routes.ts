import { z } from 'zod';
import {
  deleteIntegration,
  findIntegration,
  integrationCredentialId,
  listIntegrations,
  tryLockIntegration,
  saveIntegration,
} from '../../db/integration.repository';
import { PROVIDERS, type Provider } from '../../domain/agent/model-provider';
import { baseUrlMoves } from '../../domain/mcp/secret-reentry';
import { changeInProgress, notFound } from '../http-error';
import { invalidField } from '../field-errors';
import { secretRequired } from '../secret-required';
import { route, type RouteSpec } from '../route';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { integrationJson, toIntegrationJson } from '../json/integration.json';

const putBody = z
  .object({
    // Optional so that leaving it out gets a precise answer: the stored key stays, and so must base_url.
    api_key: z.string().min(1).max(4096).regex(/^\S+$/, 'must not contain whitespace').optional(),
    base_url: z
      .url({ protocol: /^https?$/ })
      .max(2048)
      .nullish(),
  })
  .strict();

// Only the last four characters, and only of a key long enough that they say little about it.
function keyHint(apiKey: string): string {
  return apiKey.length >= 16 ? `…${apiKey.slice(-4)}` : '…';
}

function providerParam(value: string): Provider {
  if (!(PROVIDERS as readonly string[]).includes(value))
    throw invalidField('provider', `must be one of ${PROVIDERS.join(', ')}`);
  return value as Provider;
}

/** LLM provider integrations of the current workspace; the key goes to the credential vault under `integration:<provider>`. */
export const integrationRoutes: RouteSpec[] = [
  route({
    method: 'put',
    path: '/api/workspaces/current/integrations/:provider',
    summary: 'Connect a provider with the workspace key (a new base_url needs the key again)',
    tag: 'integrations',
    permission: 'integrations:manage',
    body: putBody,
    errors: [409],
    response: z.object({ data: integrationJson }),
    handler: async ({ body, params, auth, deps }) => {
      const provider = providerParam(params.provider);
      const baseUrl = body.base_url ?? null;
      const apiKey = body.api_key;
      // Serialised per provider: a key always ends up stored with the base_url of the request that gave it.
      return deps.db.transaction().execute(async (trx) => {
        if (!(await tryLockIntegration(trx, auth.workspaceId, provider))) throw changeInProgress('integration');
        if (apiKey === undefined) {
          const existing = await findIntegration(trx, auth.workspaceId, provider);
          if (!existing) throw invalidField('api_key', 'is required to connect a provider');
          if (baseUrlMoves(existing.base_url, baseUrl))
            throw secretRequired('base_url', 'changes where the stored key is sent', 'api_key', ['api_key']);
          return { data: toIntegrationJson(existing) };
        }
        // The one direct vault write of the api: the key never enters Postgres, a workflow argument or history.
        // Written before the row, so a reader that sees the new base_url finds the key given with it.
        await deps.vault.put(
          { workspaceId: auth.workspaceId, credentialId: integrationCredentialId(provider) },
          apiKey,
        );
        const row = await saveIntegration(trx, auth.workspaceId, provider, {
          base_url: baseUrl,
          key_hint: keyHint(apiKey),
        });
        return { data: toIntegrationJson(row) };
      });
    },
  }),
  route({
    method: 'get',
    path: '/api/workspaces/current/integrations',
    summary: "The workspace's connected providers (keys masked)",
    tag: 'integrations',
    permission: 'integrations:manage',
    query: pageQuery,
    response: dataPageJson(integrationJson),
    handler: async ({ query, auth, deps }) =>
      dataPage(query, (page) => listIntegrations(deps.db, auth.workspaceId, page), toIntegrationJson),
  }),
  route({
    method: 'get',
    path: '/api/workspaces/current/integrations/:provider',
    summary: 'One provider integration (key masked)',
    errors: [422],
    tag: 'integrations',
    permission: 'integrations:manage',
    response: z.object({ data: integrationJson }),
    handler: async ({ params, auth, deps }) => {
      const row = await findIntegration(deps.db, auth.workspaceId, providerParam(params.provider));
      if (!row) throw notFound('integration');
      return { data: toIntegrationJson(row) };
    },
  }),
  route({
    method: 'delete',
    path: '/api/workspaces/current/integrations/:provider',
    summary: 'Disconnect a provider and delete its key',
    errors: [422],
    tag: 'integrations',
    permission: 'integrations:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      const provider = providerParam(params.provider);
      if (!(await deleteIntegration(deps.db, auth.workspaceId, provider))) throw notFound('integration');
      await deps.vault.delete({ workspaceId: auth.workspaceId, credentialId: integrationCredentialId(provider) });
      return undefined;
    },
  }),
];
