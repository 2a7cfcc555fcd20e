import { z } from 'zod';
import { listCaseResults } from '../../db/case-result.repository';
import { isUuid } from '../../db/column-values';
import { existingConversationIds } from '../../db/conversation.repository';
import { existingCaseIds } from '../../db/eval-case.repository';
import { insertEvalRun, listEvalRuns } from '../../db/eval-run.repository';
import { countRunCases, runCaseScope } from '../../db/run-cases.repository';
import type { EvalSet } from '../../db/tables/eval-set.table';
import { boundedRecord } from '../../domain/bounded-schemas';
import { LIMITS } from '../../domain/limits';
import { minScoresOverrideSchema, resolveMinScores } from '../../domain/scoring/criteria';
import { distinctTags, runTagSchema, runTagsSchema } from '../../domain/eval/run-tags';
import type { AppDeps } from '../app-deps';
import { requireRunnableAgent } from '../agent-run-errors';
import { requireAgentEvalRun, requireAgentEvalSet } from '../eval-lookups';
import { requireAgent } from '../lookups';
import { invalidField } from '../field-errors';
import { dataPage, dataPageJson, pageQuery } from '../paging';
import { dryRunJson, dryRunOf } from '../eval-dry-run';
import { route, StatusReply, type RouteSpec } from '../route';
import { caseResultJson, evalRunJson, toCaseResultJson, toEvalRunJson } from '../json/eval-run.json';
import { startEvalRun } from '../workflow-starts';

const triggerBody = z
  .object({
    mode: z.enum(['offline', 'live']).default('offline'),
    run_selection: z.enum(['source', 'explicit']).default('source'),
    conversations: boundedRecord(z.string().max(200), 'casesPerEvalSet').optional(),
    min_scores: minScoresOverrideSchema.optional(),
    judge_samples: z.number().int().min(1).max(9).optional(),
    repeats: z.number().int().min(1).max(LIMITS.repeatsPerRun).optional(),
    min_repeat_pass: z.number().int().min(1).max(LIMITS.repeatsPerRun).optional(),
    tags: runTagsSchema.optional(),
    no_cache: z
      .boolean()
      .optional()
      .meta({
        description:
          'Judge every sample afresh: neither read nor write the judge verdict cache (per workspace at most ' +
          `${LIMITS.judgeCacheEntriesPerWorkspace} entries (limit judgeCacheEntriesPerWorkspace) and ` +
          `${LIMITS.judgeCacheBytesPerWorkspace} bytes (limit judgeCacheBytesPerWorkspace), the oldest evicted ` +
          `first; a reply over ${LIMITS.judgeReplyBytes} bytes (limit judgeReplyBytes) is not cached).`,
      }),
    dry_run: z.boolean().optional().describe('answer 200 with the judge calls and an estimate; start nothing'),
  })
  .strict();
type TriggerBody = z.infer<typeof triggerBody>;

const runsQuery = pageQuery.extend({
  tag: runTagSchema.optional().meta({ description: 'Only the runs carrying this tag.' }),
});

// Explicit selection: every key a case of the set, every value a conversation of the agent (others fall back to source).
async function validateSelection(
  deps: AppDeps,
  set: EvalSet,
  body: TriggerBody,
): Promise<Record<string, string> | null> {
  if (body.run_selection === 'source') {
    if (body.conversations !== undefined)
      throw invalidField('conversations', 'is only allowed with run_selection "explicit"');
    return null;
  }
  const chosen = body.conversations ?? {};
  if (Object.keys(chosen).length === 0)
    throw invalidField('conversations', 'must map at least one case id to a run id with run_selection "explicit"');
  const caseIds = Object.keys(chosen).filter(isUuid);
  const runIds = Object.values(chosen).filter(isUuid);
  const [cases, runs] = await Promise.all([
    existingCaseIds(deps.db, set.id, caseIds),
    existingConversationIds(deps.db, set.agent_id, runIds),
  ]);
  for (const [caseId, runId] of Object.entries(chosen)) {
    if (!cases.has(caseId)) throw invalidField(`conversations.${caseId}`, 'is not a case of this eval set');
    if (!runs.has(runId)) throw invalidField(`conversations.${caseId}`, `${runId} is not a run of this agent`);
  }
  return chosen;
}

// Live runs the agent's published version (pinned at preflight) on each case's message: no conversation to choose.
async function checkLiveTrigger(
  deps: AppDeps,
  workspaceId: string,
  agentRef: string,
  body: TriggerBody,
): Promise<void> {
  if (body.run_selection === 'explicit')
    throw invalidField('run_selection', 'live mode runs the agent for each case: use "source" (the default)');
  await requireRunnableAgent(deps.db, await requireAgent(deps.db, workspaceId, agentRef));
}

/** Eval runs: trigger a run of a set, read it and its case results, list a set's runs. */
export const evalRunRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets/:set/run',
    resource: 'eval-runs',
    summary:
      'Trigger a run of an eval set (queued; scored in the background; live runs the agent in the sandbox per case)',
    errors: [409, 503],
    tag: 'evaluation',
    permission: 'evals:manage',
    body: triggerBody,
    status: 201,
    response: z.object({ data: evalRunJson }),
    altResponse: { status: 200, description: 'A dry run (`dry_run: true`): nothing started', schema: dryRunJson },
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      if (body.mode === 'live') await checkLiveTrigger(deps, auth.workspaceId, params.agent, body);
      const repeats = body.repeats ?? 1;
      if (body.min_repeat_pass !== undefined && body.min_repeat_pass > repeats)
        throw invalidField('min_repeat_pass', `must be at most repeats (${repeats})`);
      const conversations = await validateSelection(deps, set, body);
      if (body.dry_run) {
        // Read defensively: `repeats` joins the body with repeated runs.
        const repeats = (body as { repeats?: number }).repeats ?? 1;
        const samples = body.judge_samples ?? set.judge_samples;
        const live = body.mode === 'live';
        const dry = { agent: params.agent, samples, repeats, live, explicit: conversations };
        return new StatusReply(200, await dryRunOf(deps, auth.workspaceId, set, dry));
      }
      const run = await insertEvalRun(deps.db, set, {
        mode: body.mode,
        run_selection: body.run_selection,
        conversations,
        min_scores: resolveMinScores(set.min_scores, body.min_scores),
        judge_samples: body.judge_samples ?? set.judge_samples,
        repeats,
        min_repeat_pass: body.min_repeat_pass ?? null,
        tags: distinctTags(body.tags ?? []),
        no_cache: body.no_cache ?? false,
      });
      const cases = await countRunCases(deps.db, runCaseScope(run));
      await startEvalRun(deps, run, { agent: params.agent, set: set.name, cases });
      return { data: toEvalRunJson(run) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set/runs',
    summary: "List a set's runs, newest first (with `tag`, only the runs carrying it)",
    tag: 'evaluation',
    permission: 'evals:view',
    query: runsQuery,
    response: dataPageJson(evalRunJson),
    handler: async ({ params, query, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const { tag } = query as z.infer<typeof runsQuery>;
      return dataPage(query, (page) => listEvalRuns(deps.db, set.id, page, { tag }), toEvalRunJson);
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-runs/:evalRun',
    summary: 'Get an eval run: status, progress, summary, error',
    tag: 'evaluation',
    permission: 'evals:view',
    response: z.object({ data: evalRunJson }),
    handler: async ({ params, auth, deps }) => {
      return { data: toEvalRunJson(await requireAgentEvalRun(deps.db, auth.workspaceId, params)) };
    },
  }),
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-runs/:evalRun/results',
    summary: "An eval run's case results, in case order",
    tag: 'evaluation',
    permission: 'evals:view',
    query: pageQuery,
    response: dataPageJson(caseResultJson),
    handler: async ({ params, query, auth, deps }) => {
      const run = await requireAgentEvalRun(deps.db, auth.workspaceId, params);
      return dataPage(query, (page) => listCaseResults(deps.db, run.id, page), toCaseResultJson);
    },
  }),
];
