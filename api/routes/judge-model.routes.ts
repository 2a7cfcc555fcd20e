import { z } from 'zod';
import { findJudgeModel, saveJudgeModel } from '../../db/workspace-settings.repository';
import { providerForModel } from '../../domain/agent/model-provider';
import { invalidField } from '../field-errors';
import { route, type RouteSpec } from '../route';

const workspaceHeader = z.object({ 'x-workspace-id': z.string().uuid().optional() });
const judgeModelJson = z.object({ data: z.object({ judge_model: z.string() }) });

/** The workspace judge model (X-Workspace-Id selects the workspace; an empty value means none is fixed). */
export const judgeModelRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/workspaces/current/eval-judge-model',
    summary: "The workspace's judge model ('' when none is fixed)",
    tag: 'evaluation',
    permission: 'evals:view',
    headers: workspaceHeader,
    response: judgeModelJson,
    handler: async ({ auth, deps }) => ({
      data: { judge_model: (await findJudgeModel(deps.db, auth.workspaceId)) ?? '' },
    }),
  }),
  route({
    method: 'put',
    path: '/api/workspaces/current/eval-judge-model',
    summary: 'Fix the judge model for every agent (empty removes it)',
    tag: 'evaluation',
    permission: 'evals:manage',
    headers: workspaceHeader,
    response: judgeModelJson,
    body: z.object({ judge_model: z.string().trim().max(200) }).strict(),
    handler: async ({ body, auth, deps }) => {
      const judgeModel = body.judge_model === '' ? null : body.judge_model;
      if (judgeModel !== null && providerForModel(judgeModel) === null) {
        throw invalidField(
          'judge_model',
          `cannot derive a provider from "${judgeModel}": use a known model family or a provider/model id`,
        );
      }
      await saveJudgeModel(deps.db, auth.workspaceId, judgeModel);
      return { data: { judge_model: judgeModel ?? '' } };
    },
  }),
];
