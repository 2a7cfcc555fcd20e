/** A live case as one activity runs it: its run, the case, and one agent run key per repeat, in order. */
export interface LiveCaseInput {
  runId: string;
  caseId: string;
  keys: string[];
}

/**
 * The scoring input of a live case whose slot the workflow holds, against the conversation of each repeat's sandbox
 * run (none: the case already has a result and is only counted).
 */
export function heldCaseBatch(runId: string, caseId: string, conversationIds: readonly string[] = []) {
  const last = conversationIds[conversationIds.length - 1];
  return {
    runId,
    caseIds: [caseId],
    width: 1,
    conversations: last ? { [caseId]: last } : undefined,
    repeatConversations: conversationIds.length > 1 ? { [caseId]: [...conversationIds] } : undefined,
    slotHeld: true,
  };
}
