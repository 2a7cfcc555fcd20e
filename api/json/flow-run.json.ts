import { z } from 'zod';
import type { FlowRun, McpCallToolNode } from '../../db/tables/flow.table';

export const nodeResultJson = z.object({
  id: z.string(),
  tool_name: z.string(),
  status: z.string(),
  arguments: z.record(z.string(), z.unknown()).nullable(),
  output: z.unknown(),
  error: z.string().nullable(),
});

export const runJson = z.object({
  id: z.string(),
  flow_id: z.string(),
  status: z.string(),
  variables: z.record(z.string(), z.unknown()),
  nodes: z.array(nodeResultJson),
  error: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});

/** The API shape of a flow run: one entry per node of the flow, in order, `pending` until it has run. */
export function toFlowRunJson(row: FlowRun, nodes: McpCallToolNode[]): z.infer<typeof runJson> {
  const results = row.node_results;
  return {
    id: row.id,
    flow_id: row.flow_id,
    status: row.status,
    variables: row.variables,
    nodes: nodes.map((node) => {
      const result = Object.hasOwn(results, node.id) ? results[node.id] : undefined;
      return {
        id: node.id,
        tool_name: node.tool_name,
        status: result?.status ?? 'pending',
        arguments: result?.arguments ?? null,
        output: result?.output ?? null,
        error: result?.error ?? null,
      };
    }),
    error: row.error,
    created_at: row.created_at.toISOString(),
    started_at: row.started_at?.toISOString() ?? null,
    finished_at: row.finished_at?.toISOString() ?? null,
  };
}
