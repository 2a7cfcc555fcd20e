import { z } from 'zod';
import type { ServiceTokenListing } from '../../db/service-token.repository';
import { isoOrNull, tokenSummaryJson } from '../token-input';

export const serviceTokenJson = z.object({
  ...tokenSummaryJson,
  role: z.string(),
  created_by: z.string().nullable(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});

export function toServiceTokenJson(row: ServiceTokenListing): z.infer<typeof serviceTokenJson> {
  return {
    id: row.id,
    name: row.name,
    role: row.role,
    prefix: row.prefix,
    created_by: row.created_by,
    created_at: row.created_at.toISOString(),
    expires_at: isoOrNull(row.expires_at),
    last_used_at: isoOrNull(row.last_used_at),
    revoked_at: isoOrNull(row.revoked_at),
  };
}
