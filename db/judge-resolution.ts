import type { Db } from './database';
import { workspacePrices } from './model-price.repository';
import { findJudgeModel } from './workspace-settings.repository';
import {
  DEFAULT_JUDGE_MODELS,
  providerForModel,
  resolveJudge,
  type ResolvedJudge,
} from '../domain/agent/model-provider';

/**
 * Resolves a workspace's judge for an agent model (`resolveJudge`) with the workspace's judge model setting and its
 * prices of the agent's model and its provider's default judge (so the default is never pricier than the agent).
 */
export async function resolveWorkspaceJudge(
  db: Db,
  workspaceId: string,
  agentModel: string,
): Promise<ResolvedJudge | { error: string }> {
  const provider = providerForModel(agentModel);
  const candidates = provider ? [agentModel, DEFAULT_JUDGE_MODELS[provider]] : [];
  const [workspaceJudgeModel, priceOf] = await Promise.all([
    findJudgeModel(db, workspaceId),
    workspacePrices(db, workspaceId, candidates),
  ]);
  return resolveJudge({ agentModel, workspaceJudgeModel, priceOf });
}
