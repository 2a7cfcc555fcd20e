import { z } from 'zod';
import type { Agent } from '../../db/tables/agent.table';

export const agentJson = z.object({
  id: z.string(),
  name: z.string(),
  model: z.string(),
  instructions: z.string(),
  settings: z.record(z.string(), z.unknown()),
  published_version: z.number().nullable(),
  gateway_capture: z.enum(['metadata', 'full']),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of an agent. */
export function toAgentJson(row: Agent): z.infer<typeof agentJson> {
  return {
    id: row.id,
    name: row.name,
    model: row.model,
    instructions: row.instructions,
    settings: row.settings as Record<string, unknown>,
    published_version: row.published_version,
    gateway_capture: row.gateway_capture,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
