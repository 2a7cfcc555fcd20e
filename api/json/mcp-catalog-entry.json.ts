import { z } from 'zod';
import type { McpCatalogEntry } from '../../db/tables/mcp.table';

export const catalogEntryJson = z.object({
  id: z.string(),
  name: z.string(),
  label: z.string(),
  category: z.string(),
  image: z.string(),
  description: z.string(),
  transport: z.string(),
  config_schema: z.record(z.string(), z.unknown()),
  required_secrets: z.array(z.string()),
  workspace_id: z.string().nullable(),
});

/** The API shape of a catalog entry (a stdio entry's command and env stay on the server side). */
export function toCatalogEntryJson(row: McpCatalogEntry): z.infer<typeof catalogEntryJson> {
  return {
    id: row.id,
    name: row.name,
    label: row.label,
    category: row.category,
    image: row.image,
    description: row.description,
    transport: row.transport,
    config_schema: row.config_schema,
    required_secrets: row.required_secrets,
    workspace_id: row.workspace_id,
  };
}
