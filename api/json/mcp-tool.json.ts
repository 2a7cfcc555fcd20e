import { z } from 'zod';
import type { McpTool } from '../../db/tables/mcp.table';

export const parameterJson = z.object({
  name: z.string(),
  type: z.string(),
  description: z.string(),
  required: z.boolean(),
});

export const toolJson = z.object({
  name: z.string(),
  description: z.string(),
  parameters: z.array(parameterJson),
  input_schema: z.unknown(),
});

/** The API shape of a tool descriptor: the spec's fields plus the raw input schema kept beside them. */
export function toToolJson(row: McpTool): z.infer<typeof toolJson> {
  return { name: row.name, description: row.description, parameters: row.parameters, input_schema: row.input_schema };
}
