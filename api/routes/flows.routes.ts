import { z } from 'zod';
import { deleteFlow, insertFlow, listFlows } from '../../db/flow.repository';
import { isUniqueViolation } from '../../db/pg-errors';
import { boundedArray } from '../../domain/bounded-schemas';
import { flowNodeBody, validateFlowNodes } from '../flow-validation';
import { HttpError } from '../http-error';
import { requireFlow } from '../lookups';
import { route, type RouteSpec } from '../route';
import { linkedPage, pageQuery } from '../paging';
import { flowJson, toFlowJson } from '../json/flow.json';

const createFlowBody = z.object({
  name: z.string().trim().min(1).max(120),
  nodes: boundedArray(flowNodeBody, 'flowNodes').min(1),
});

/** Flows of `mcp.call_tool` nodes: create (validated against stored tool descriptors), list, get, delete. */
export const flowRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/v1/flows',
    summary: 'Create a flow of mcp.call_tool nodes',
    errors: [404, 409],
    tag: 'flows',
    permission: 'flows:manage',
    body: createFlowBody,
    status: 201,
    response: flowJson,
    handler: async ({ body, auth, deps }) => {
      const nodes = await validateFlowNodes(deps.db, auth.workspaceId, body.nodes);
      const row = await insertFlow(deps.db, auth.workspaceId, body.name, nodes).catch((error: unknown) => {
        throw isUniqueViolation(error)
          ? new HttpError(409, 'conflict', `a flow named ${body.name} already exists`, { field: 'name' })
          : error;
      });
      return toFlowJson(row);
    },
  }),
  route({
    method: 'get',
    path: '/api/v1/flows',
    summary: 'List flows',
    tag: 'flows',
    permission: 'flows:run',
    query: pageQuery,
    response: z.array(flowJson),
    handler: async (ctx) => linkedPage(ctx, (page) => listFlows(ctx.deps.db, ctx.auth.workspaceId, page), toFlowJson),
  }),
  route({
    method: 'get',
    path: '/api/v1/flows/:id',
    summary: 'Get a flow',
    tag: 'flows',
    permission: 'flows:run',
    response: flowJson,
    handler: async ({ params, auth, deps }) => toFlowJson(await requireFlow(deps.db, auth.workspaceId, params.id)),
  }),
  route({
    method: 'delete',
    path: '/api/v1/flows/:id',
    summary: 'Delete a flow and its runs',
    tag: 'flows',
    permission: 'flows:manage',
    status: 204,
    handler: async ({ params, auth, deps }) => {
      await deleteFlow(deps.db, (await requireFlow(deps.db, auth.workspaceId, params.id)).id);
      return undefined;
    },
  }),
];
