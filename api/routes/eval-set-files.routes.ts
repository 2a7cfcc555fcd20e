import type { Request } from 'express';
import { z } from 'zod';
import { allEvalCases, importEvalCases } from '../../db/eval-set-file.repository';
import { resolveMinScores } from '../../domain/scoring/criteria';
import { readEvalSetJson, readEvalSetJsonLines, type ImportRead } from '../../domain/eval/eval-set-file.reader';
import { evalSetFileSchema, toEvalSetFile } from '../../domain/eval/eval-set-file.schema';
import { toAdkEvalSet } from '../../domain/eval/adk-export';
import { evalName } from '../../domain/eval/eval-fields';
import { limitMessage } from '../../domain/limit-checks';
import { LIMITS } from '../../domain/limits';
import { requireAgentEvalSet } from '../eval-lookups';
import { invalidFields } from '../field-errors';
import { HttpError } from '../http-error';
import { readBulkBody, type BulkBody } from '../jsonl-body';
import { parseOr422, route, type RouteSpec } from '../route';

const tooMany = (why: string): HttpError => {
  const message = `${why}: ${limitMessage('casesPerEvalSet', 'items')}`;
  return new HttpError(413, 'payload_too_large', message, [
    { field: 'cases', message, limit: 'casesPerEvalSet', max: LIMITS.casesPerEvalSet },
  ]);
};

const EMPTY = { field: '(body)', message: 'an eval set file, an ADK eval set or JSONL of cases is required' };

function readImport(req: Request, legacyName: string): Extract<ImportRead, { cases: unknown }> {
  const body = readBulkBody(req, (i) => `cases[${i}]`, EMPTY);
  let read: ImportRead | BulkBody;
  if (!('jsonl' in body)) read = body;
  else if (body.jsonl) read = readEvalSetJsonLines(parseOr422(z.array(z.unknown()), body.value));
  else read = readEvalSetJson(parseOr422(z.unknown(), body.value), { legacyName });
  if ('tooMany' in read)
    throw tooMany(`the file holds ${'atLeast' in read ? `more than ${LIMITS.casesPerEvalSet}` : read.tooMany} cases`);
  if ('problems' in read) throw invalidFields(read.problems);
  return read;
}

const importResult = z.object({
  created: z.number().int(),
  updated: z.number().int(),
  unchanged: z.number().int(),
  format: z.enum(['assay', 'adk', 'jsonl']),
  notes: z
    .array(z.object({ field: z.string(), message: z.string() }))
    .optional()
    .meta({ description: 'what an ADK file holds that Assay does not import, each named by its ADK field' }),
});

const exportQuery = z.object({
  format: z.enum(['assay', 'adk']).optional().meta({ description: 'assay (default) or adk (a Google ADK EvalSet)' }),
});

const importQuery = z.object({
  legacy_name: evalName.optional().meta({
    description:
      "the case name of an ADK test file in the old list format (ADK uses the file's path); default: the set's name",
  }),
});

// The outside of an ADK EvalSet as the export writes it (its cases follow ADK's EvalCase model).
const adkEvalSetJson = z
  .object({
    eval_set_id: z.string(),
    name: z.string(),
    description: z.string().optional(),
    eval_cases: z.array(z.record(z.string(), z.unknown())),
  })
  .meta({ title: 'Google ADK EvalSet' });

/** Eval sets as files: export a set with its cases, import cases from an Assay, ADK or JSONL file (upsert by name). */
export const evalSetFileRoutes: RouteSpec[] = [
  route({
    method: 'get',
    path: '/api/ai-agents/:agent/eval-sets/:set/export',
    summary:
      'Export an eval set with its cases as a file (JSON Schema: /schemas/eval-set.json), or with format=adk as ' +
      "a Google ADK EvalSet (what ADK's EvalSet.model_validate_json loads; see docs/evaluation.md)",
    tag: 'evaluation',
    permission: 'evals:view',
    query: exportQuery,
    response: z.union([evalSetFileSchema, adkEvalSetJson]),
    handler: async ({ params, query, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const cases = await allEvalCases(deps.db, set.id);
      if ((query as z.infer<typeof exportQuery>).format === 'adk') return toAdkEvalSet(set, cases);
      return toEvalSetFile({ ...set, min_scores: resolveMinScores(set.min_scores) }, cases);
    },
  }),
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/eval-sets/:set/cases/import',
    resource: 'cases',
    summary:
      'Import cases (upsert by name, all or nothing) from an eval set file, an ADK evalset/test JSON, or JSONL ' +
      '(Content-Type application/x-ndjson or application/jsonl, one case a line)',
    tag: 'evaluation',
    permission: 'evals:manage',
    body: z.unknown().meta({ description: 'An eval set file (/schemas/eval-set.json) or an ADK eval set' }),
    query: importQuery,
    response: z.object({ data: importResult }),
    handler: async ({ req, params, query, auth, deps }) => {
      const set = await requireAgentEvalSet(deps.db, auth.workspaceId, params);
      const read = readImport(req, (query as z.infer<typeof importQuery>).legacy_name ?? set.name);
      const outcome = await importEvalCases(deps.db, set.id, read.cases, LIMITS.casesPerEvalSet);
      if ('problems' in outcome) throw invalidFields(outcome.problems);
      if ('full' in outcome)
        throw tooMany(`the eval set holds ${outcome.full.existing} cases and the file adds ${outcome.full.created}`);
      const notes = read.notes?.length ? { notes: read.notes } : {};
      return { data: { ...outcome.imported, format: read.format, ...notes } };
    },
  }),
];
