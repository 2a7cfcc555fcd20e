import { z } from 'zod';
import { findFlowRun, insertFlowRun } from '../../db/flow-run.repository';
import type { FlowRun, McpCallToolNode } from '../../db/tables/flow.table';
import { isUuid } from '../../db/column-values';
import { boundedObject } from '../../domain/bounded-schemas';
import { notFound } from '../http-error';
import { requireFlow } from '../lookups';
import { route, type RouteSpec } from '../route';
import { startFlowRun } from '../workflow-starts';

const startRunBody = z.object({ variables: boundedObject('flowVariablesBytes').default({}) });
const nodeResultJson = z.object({
  id: z.string(),
  tool_name: z.string(),
  status: z.string(),
  arguments: z.record(z.string(), z.unknown()).nullable(),
  output: z.unknown(),
  error: z.string().nullable(),
});
const runJson = z.object({
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

/** Flow runs: start one with variables (workflow `flow-run:<id>`) and read its node results. */
export const flowRunRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/flows/:id/runs',
    resource: 'flow-runs',
    summary: 'Run a flow with variables',
    errors: [503],
    tag: 'flows',
    permission: 'flows:run',
    body: startRunBody,
    status: 201,
    response: runJson,
    handler: async ({ body, params, auth, deps }) => {
      const flow = await requireFlow(deps.db, auth.workspaceId, params.id);
      const run = await insertFlowRun(deps.db, auth.workspaceId, flow.id, body.variables);
      await startFlowRun(deps, run);
      return toFlowRunJson(run, flow.nodes);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/flow-runs/:id',
    summary: 'Get a flow run with its node results',
    tag: 'flows',
    permission: 'flows:run',
    response: runJson,
    handler: async ({ params, auth, deps }) => {
      const run = isUuid(params.id) ? await findFlowRun(deps.db, auth.workspaceId, params.id) : undefined;
      if (!run) throw notFound('flow run');
      const flow = await requireFlow(deps.db, auth.workspaceId, run.flow_id);
      return toFlowRunJson(run, flow.nodes);
    },
  }),
];
