import { z } from 'zod';
import { importEvalCasesIn } from '../../db/eval-set-file.repository';
import { updateEvalSet } from '../../db/eval-set.repository';
import { mapAdkConfig, type AdkConfigMapping } from '../../domain/eval/adk-config';
import { resolveSimulatorSettings } from '../../domain/eval/simulator-settings';
import type { LocatedCase } from '../../domain/eval/eval-set-file.reader';
import type { StoredCase } from '../../domain/eval/eval-set-import';
import { limitMessage } from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { TRAJECTORY_MATCH_MODES } from '../../domain/trajectory/trajectory-modes';
import { requireAgentEvalSet } from '../eval-lookups';
import { invalidFields } from '../field-errors';
import { evalSetJson, toEvalSetJson } from '../json/eval-set.json';
import { route, type RouteSpec } from '../route';

// A case's rubrics of one kind with the config's after them, each once, within the bound (else 422 naming the field).
function merged(caseName: string, own: readonly string[] | null | undefined, added: string[], field: string) {
  const rubrics = [...new Set([...(own ?? []), ...added])];
  if (rubrics.length > LIMITS.rubricsPerCase)
    throw invalidFields([
      {
        field,
        message: `case ${caseName} would have more rubrics than allowed: ${limitMessage('rubricsPerCase', 'items')}`,
      },
    ]);
  return rubrics.length ? rubrics : null;
}

// Every case gets the config's match type, its rubrics and its tool-use rubrics.
function withConfig(cases: readonly StoredCase[], mapping: AdkConfigMapping): LocatedCase[] {
  return cases.map(({ id: _id, ...fields }, i) => ({
    at: `cases[${i}]`,
    nameField: 'name',
    fields: {
      ...fields,
      trajectory_match: mapping.trajectory_match ?? fields.trajectory_match,
      rubrics: merged(
        fields.name,
        fields.rubrics,
        mapping.rubrics,
        'criteria.rubric_based_final_response_quality_v1.rubrics',
      ),
      tool_use_rubrics: merged(
        fields.name,
        fields.tool_use_rubrics,
        mapping.tool_use_rubrics,
        'criteria.rubric_based_tool_use_quality_v1.rubrics',
      ),
    },
  }));
}

const configResult = z.object({
  eval_set: evalSetJson,
  cases_updated: z.number().int(),
  trajectory_match: z.enum(TRAJECTORY_MATCH_MODES).nullable(),
  rubrics: z.array(z.string()),
  tool_use_rubrics: z.array(z.string()),
  unsupported: z.array(z.object({ criterion: z.string(), reason: z.string() })),
});

/** An ADK eval config applied to an eval set: criteria onto its minimums, samples, and its cases' mode and rubrics. */
export const adkConfigRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets/:set/adk-config',
    resource: 'eval-sets',
    summary:
      'Apply a Google ADK test_config.json / eval_config.json to an eval set: criteria onto min_scores, match_type ' +
      'onto every case, num_samples onto judge_samples, rubrics and tool-use rubrics onto every case, ' +
      'user_simulator_config onto the simulator; names every criterion Assay has not (an efficiency metric: 422)',
    tag: 'evaluation',
    permission: 'evals:manage',
    body: z.unknown().meta({ description: 'An ADK eval config: {"criteria": {<metric>: <threshold> | {...}}}' }),
    response: z.object({ data: configResult }),
    handler: async ({ body, params, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const mapping = mapAdkConfig(body);
      if ('problems' in mapping) throw invalidFields(mapping.problems);
      // One transaction: the cases and the set change together or not at all.
      const { outcome, row } = await deps.db.transaction().execute(async (trx) => {
        const imported = await importEvalCasesIn(
          trx,
          set.id,
          (existing) => withConfig(existing, mapping),
          LIMITS.casesPerEvalSet,
        );
        if (!('imported' in imported)) throw new Error('re-importing the cases of a set cannot fail');
        const updated = await updateEvalSet(trx, set.id, {
          name: set.name,
          description: set.description,
          min_scores: resolveMinScores(set.min_scores, mapping.min_scores),
          judge_samples: mapping.judge_samples ?? set.judge_samples,
          ...(mapping.simulator && {
            simulator: { ...resolveSimulatorSettings(set.simulator), ...mapping.simulator },
          }),
        });
        return { outcome: imported, row: updated };
      });
      return {
        data: {
          eval_set: toEvalSetJson(row),
          cases_updated: outcome.imported.updated,
          trajectory_match: mapping.trajectory_match ?? null,
          rubrics: mapping.rubrics,
          tool_use_rubrics: mapping.tool_use_rubrics,
          unsupported: mapping.unsupported,
        },
      };
    },
  }),
];
