import { z } from 'zod';
import { listCassetteEntries, replaceCassette } from '../../db/cassette.repository';
import { CASSETTE_FORMAT, cassetteFileSchema } from '../../domain/eval/cassette';
import { requireAgentEvalSet } from '../eval-lookups';
import { route, type RouteSpec } from '../route';

const importResult = z.object({ entries: z.number().int() });

/** An eval set's cassette as a file: export it, or replace it by importing one (JSON Schema: /schemas/cassette.json). */
export const cassetteRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set/cassette',
    summary:
      "Export an eval set's cassette: the tool responses live runs recorded (JSON Schema: /schemas/cassette.json)",
    tag: 'evaluation',
    permission: 'evals:view',
    response: cassetteFileSchema,
    handler: async ({ params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      return { format: CASSETTE_FORMAT, entries: await listCassetteEntries(deps.db, set.id) };
    },
  }),
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets/:set/cassette',
    summary: "Import a cassette file, replacing the eval set's cassette (a call given twice keeps its last response)",
    tag: 'evaluation',
    permission: 'evals:manage',
    body: cassetteFileSchema,
    response: z.object({ data: importResult }),
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      await replaceCassette(deps.db, set.id, body.entries);
      return { data: { entries: (await listCassetteEntries(deps.db, set.id)).length } };
    },
  }),
];
