import { z } from 'zod';
import { findFlowRun, insertFlowRun } from '../../db/flow-run.repository';
import { isUuid } from '../../db/column-values';
import { boundedObject } from '../../domain/bounded-schemas';
import { notFound } from '../http-error';
import { requireFlow } from '../lookups';
import { route, type RouteSpec } from '../route';
import { startFlowRun } from '../workflow-starts';
import { runJson, toFlowRunJson } from '../json/flow-run.json';

const startRunBody = z.object({ variables: boundedObject('flowVariablesBytes').default({}) });

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
