import type { Request } from 'express';
import { z } from 'zod';
import { insertConversationBatch } from '../../db/conversation.repository';
import { findCasesByIdOrName } from '../../db/eval-case.repository';
import { batchField, batchTooLarge, resolveBatchCases } from '../../domain/eval/conversation-batch';
import { LIMITS } from '../../domain/limits';
import { requireEvalSet } from '../eval-lookups';
import { invalidFields } from '../field-errors';
import { HttpError } from '../http-error';
import { readBulkBody } from '../jsonl-body';
import { requireAgent } from '../lookups';
import { parseOr422, route, type RouteSpec } from '../route';
import { checkConversationShape, conversationImportFields, importedConversation } from '../conversation-input';

/** One item of a batch: a conversation as `POST /runs/import` takes it, and the case (id or name) it answers. */
const batchItem = conversationImportFields
  .extend({ case: z.string().trim().min(1).max(200) })
  .superRefine(checkConversationShape);
const batchBody = z.array(batchItem).max(LIMITS.casesPerEvalSet);
type BatchItem = z.infer<typeof batchItem>;

const batchQuery = z.object({ eval_set: z.string().trim().min(1).max(200) });

const batchResponse = z.object({
  data: z.object({
    eval_set_id: z.string(),
    imported: z.number().int(),
    conversations: z.record(z.string(), z.string()),
  }),
});

// `atLeast`: the body was refused once it held one item more than the limit, unread past it.
const tooMany = (count: number, atLeast = false): HttpError => {
  const message = `${atLeast ? `more than ${LIMITS.casesPerEvalSet}` : count} items: at most ${LIMITS.casesPerEvalSet} (limit casesPerEvalSet)`;
  return new HttpError(413, 'payload_too_large', `items: ${message}`, [
    { field: 'items', message, limit: 'casesPerEvalSet', max: LIMITS.casesPerEvalSet },
  ]);
};

// The body (a JSON array, or JSONL) as a list of items: not a list is 422 naming `items`, over the set size 413, a
// JSONL line that is not JSON or a bad item 422 naming `items[<i>]` / `items[<i>].<field>` (every one, in order).
function parseBatch(req: Request): BatchItem[] {
  const body = readBulkBody(req, (i) => `items[${i}]`);
  if ('tooMany' in body) throw tooMany(body.tooMany, body.atLeast);
  if ('problems' in body) throw invalidFields(body.problems);
  const raw = body.value;
  if (!Array.isArray(raw))
    throw invalidFields([{ field: 'items', message: 'must be a JSON array or JSONL (one conversation a line)' }]);
  if (batchTooLarge(raw.length)) throw tooMany(raw.length);
  try {
    return parseOr422(batchBody, raw);
  } catch (error) {
    if (!(error instanceof HttpError) || !Array.isArray(error.details)) throw error;
    const details = error.details as Array<{ field: string; message: string }>;
    throw invalidFields(details.map((detail) => ({ ...detail, field: batchField(detail.field) })));
  }
}

/** `POST /runs/import/batch`: a set's conversations produced elsewhere (CI), each mapped to its case, all or none. */
export const conversationBatchRoutes: RouteSpec[] = [
  route({
    method: 'post',
    path: '/api/ai-agents/:agent/runs/import/batch',
    resource: 'runs',
    summary:
      'Record conversations produced elsewhere, one per case of an eval set (JSON array or JSONL), all or none; ' +
      'answers the case → conversation map an explicit run takes',
    tag: 'evaluation',
    permission: 'evals:manage',
    query: batchQuery,
    body: batchBody,
    parseBody: parseBatch,
    status: 201,
    response: batchResponse,
    handler: async ({ body, query, params, auth, deps }) => {
      const agent = await requireAgent(deps.db, auth.workspaceId, params.agent);
      const set = await requireEvalSet(deps.db, agent, (query as z.infer<typeof batchQuery>).eval_set);
      const refs = body.map((item) => item.case);
      const resolved = resolveBatchCases(refs, await findCasesByIdOrName(deps.db, set.id, refs));
      if ('issues' in resolved) throw invalidFields(resolved.issues);
      const ids = await insertConversationBatch(
        deps.db,
        agent,
        body.map(({ case: _case, ...conversation }) => importedConversation(conversation)),
      );
      const conversations = Object.fromEntries(resolved.caseIds.map((caseId, i) => [caseId, ids[i]]));
      return { data: { eval_set_id: set.id, imported: ids.length, conversations } };
    },
  }),
];
