import { z } from 'zod';
import type { Integration } from '../../db/tables/workspace-settings.table';

export const integrationJson = z.object({
  provider: z.string(),
  connected: z.boolean(),
  base_url: z.string().nullable(),
  key_hint: z.string(),
  credential_id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of an integration: a masked hint of the key, never the key. */
export function toIntegrationJson(row: Integration): z.infer<typeof integrationJson> {
  return {
    provider: row.provider,
    connected: true,
    base_url: row.base_url,
    key_hint: row.key_hint,
    credential_id: row.credential_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
