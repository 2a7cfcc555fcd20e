import { z } from 'zod';
import type { McpServer } from '../../db/tables/mcp.table';

export const serverJson = z.object({
  id: z.string(),
  name: z.string(),
  status: z.string().describe('pending, connected, error or authorization_required'),
  credential_id: z.string(),
  transport: z.string(),
  catalog_id: z.string().nullable(),
  config: z.object({ url: z.string().optional(), headers: z.record(z.string(), z.string()).optional() }),
  secret_names: z.array(z.string()),
  last_test: z.record(z.string(), z.unknown()).nullable(),
  last_error: z.string().nullable(),
  synced_at: z.string().nullable(),
  health_check_interval_seconds: z.number().int(),
  auth: z
    .object({
      type: z.enum(['oauth', 'oauth_client_credentials']),
      client_id: z.string().nullable(),
      scopes: z.string().nullable(),
      step_up_scope: z
        .string()
        .nullable()
        .describe(
          'the scope the server asked for with 403 insufficient_scope while it waits (status authorization_required) ' +
            'for a person to authorize it again (the next authorization asks for it with the scopes granted so far), ' +
            'or, for oauth_client_credentials, that its token endpoint refused (status error)',
        ),
    })
    .nullable()
    .describe('OAuth settings (no secret: tokens and the client secret stay in the vault)'),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of a server: config holds `$SECRET` references only; secret values never leave the vault. */
export function toMcpServerJson(row: McpServer): z.infer<typeof serverJson> {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    credential_id: row.credential_id,
    transport: row.transport,
    catalog_id: row.catalog_id,
    config: row.config,
    secret_names: row.secret_names,
    last_test: row.last_test,
    last_error: row.last_error,
    synced_at: row.synced_at?.toISOString() ?? null,
    health_check_interval_seconds: row.health_check_interval_seconds,
    auth: row.auth_type && {
      type: row.auth_type,
      client_id: row.oauth_client_id,
      scopes: row.oauth_scopes,
      step_up_scope: row.oauth_step_up_scope,
    },
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
