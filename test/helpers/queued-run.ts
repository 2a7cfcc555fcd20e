import { insertAgent } from '../../db/agent.repository';
import type { Db } from '../../db/database';
import { insertEvalRun } from '../../db/eval-run.repository';
import { insertEvalSet } from '../../db/eval-set.repository';

const MIN_SCORES = { tool_trajectory_avg_score: 1, final_response_match: 0.8, rubric_based: 0.7 };

/** A queued offline run of a fresh agent and empty set in `workspaceId`, written straight to Postgres (no workflow). */
export async function insertQueuedRun(db: Db, workspaceId: string): Promise<{ id: string }> {
  const agent = await insertAgent(db, workspaceId, { name: 'queued', model: 'gpt-4o', instructions: 'Help.' });
  const set = await insertEvalSet(db, agent, {
    name: 'set',
    description: '',
    min_scores: MIN_SCORES,
    judge_samples: 1,
  });
  return insertEvalRun(db, set, {
    mode: 'offline',
    run_selection: 'source',
    conversations: null,
    min_scores: MIN_SCORES,
    judge_samples: 1,
  });
}
