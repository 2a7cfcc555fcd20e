import { z } from 'zod';
import type { Flow } from '../../db/tables/flow.table';
import { flowNodeBody } from '../flow-validation';

export const flowJson = z.object({
  id: z.string(),
  name: z.string(),
  nodes: z.array(flowNodeBody),
  created_at: z.string(),
  updated_at: z.string(),
});

/** The API shape of a flow. */
export function toFlowJson(row: Flow): z.infer<typeof flowJson> {
  return {
    id: row.id,
    name: row.name,
    nodes: row.nodes,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
