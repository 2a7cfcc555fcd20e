import { z } from 'zod';
import type { McpHealthCheck } from '../../db/tables/mcp.table';

export const checkJson = z.object({
  status: z.enum(['connected', 'error']),
  latency_ms: z.number().int().nullable(),
  message: z.string().nullable(),
  checked_at: z.string(),
});

/** The API shape of one scheduled health check. */
export function toHealthCheckJson(row: McpHealthCheck): z.infer<typeof checkJson> {
  return {
    status: row.status,
    latency_ms: row.latency_ms,
    message: row.message,
    checked_at: row.checked_at.toISOString(),
  };
}
