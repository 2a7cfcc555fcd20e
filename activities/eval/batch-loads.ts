import { findConversations } from '../../db/conversation.repository';
import { findEvalCasesByIds } from '../../db/eval-case.repository';
import { explicitConversationsFor, type ScoringRun } from '../../db/eval-run.repository';
import type { Conversation } from '../../db/tables/conversation.table';
import type { EvalCase } from '../../db/tables/eval-set.table';
import { caseTurns } from '../../domain/eval/case-turns';
import { SCENARIO_SKIP_REASON } from '../../domain/scoring/case-outcome';
import { storedCaseProblem, storedConversationProblem } from '../../domain/limit-checks';
import type { ActivityDeps } from '../platform/activity-deps';

const NO_CONVERSATION =
  'the case has no conversation to score: it was written by hand, so trigger the run with run_selection "explicit" ' +
  'and conversations { "<case_id>": "<run_id>" } to choose one';

/** A case of a batch whose result is decided without scoring: it is stored as an `error` with this message. */
export interface CaseRefused {
  caseId: string;
  caseName: string;
  conversationId: string | null;
  error: string;
  /** The case is not scored at all: it is stored `skipped` with `error` as its reason, never as an `error`. */
  skipped?: true;
  /** A scenario case a live run played: the conversations its simulated user played (their calls are costed). */
  played?: Conversation[];
}

/** A case of a batch ready to score against its conversation. */
export interface CaseToScore {
  evalCase: EvalCase;
  conversation: Conversation;
  /** A live run of several repeats: the conversation of each repeat's agent run, in order (`conversation` the last). */
  repeatConversations?: Conversation[];
}

/** What a batch does with one of its cases. */
export type CasePlan = CaseRefused | CaseToScore;

/** The name an error result gives a case that no longer exists. */
export const DELETED_CASE_NAME = '(deleted case)';

/**
 * Loads what the batch's unscored cases need with one query each (the cases, the run's explicit selections, the
 * conversations) and plans each case: scored against the live, explicit or source conversation, or refused with the
 * reason (deleted, over a stored-row limit, no conversation).
 */
export async function planBatch(
  deps: ActivityDeps,
  run: ScoringRun,
  caseIds: readonly string[],
  liveConversations: Readonly<Record<string, string>> = {},
  repeatConversations: Readonly<Record<string, readonly string[]>> = {},
): Promise<CasePlan[]> {
  const cases = await findEvalCasesByIds(deps.db, caseIds);
  const explicit =
    run.run_selection === 'explicit' ? await explicitConversationsFor(deps.db, run.id, caseIds) : new Map();
  const chosen = new Map<string, string>();
  for (const evalCase of cases.values()) {
    const conversationId = liveConversations[evalCase.id] ?? explicit.get(evalCase.id) ?? evalCase.source_run_id;
    if (conversationId) chosen.set(evalCase.id, conversationId);
  }
  const repeated = Object.values(repeatConversations).flat();
  const conversations = await findConversations(deps.db, run.agent_id, [...new Set([...chosen.values(), ...repeated])]);
  return caseIds.map((caseId): CasePlan => {
    const evalCase = cases.get(caseId);
    const refuse = (error: string, conversationId: string | null = null): CaseRefused => ({
      caseId,
      caseName: evalCase?.name ?? DELETED_CASE_NAME,
      conversationId,
      error,
    });
    if (!evalCase) return refuse('the case was deleted before it was scored');
    // Rows written before the limits existed are refused here, as a scored error, rather than exhausting the worker.
    const caseProblem = storedCaseProblem(evalCase);
    if (caseProblem) return refuse(caseProblem);
    const conversationId = chosen.get(caseId);
    // A scenario case is scored against a conversation its simulated user had; without one it is not scored.
    if (!conversationId && caseTurns(evalCase).length === 0) return { ...refuse(SCENARIO_SKIP_REASON), skipped: true };
    if (!conversationId) return refuse(NO_CONVERSATION);
    const conversation = conversations.get(conversationId);
    if (!conversation) return refuse(`conversation ${conversationId} no longer exists`);
    const conversationProblem = storedConversationProblem(conversation);
    if (conversationProblem) return refuse(conversationProblem, conversation.id);
    const repeats = repeatConversations[caseId];
    if (!repeats) return { evalCase, conversation };
    const loaded = repeats.flatMap((id) => conversations.get(id) ?? []);
    if (loaded.length < repeats.length) return refuse('a conversation of one of its repeats no longer exists');
    const problem = loaded.map(storedConversationProblem).find((found) => found !== undefined);
    if (problem) return refuse(problem, conversation.id);
    return { evalCase, conversation, repeatConversations: loaded };
  });
}
