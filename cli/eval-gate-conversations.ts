import { ApiError, type ApiClient } from './api-client';
import { fetchAllPages } from './api-pages';
import { missingCases, pointAtItems, type ConversationsFile } from './eval-gate-inputs';

/** The set the gate runs, as `GET …/eval-sets/{set}` returns it. */
export interface GateSet {
  id: string;
  name: string;
}

/** Names of the set's cases that no conversation of the file names (`--require-all` refuses to run with any). */
export async function casesWithoutConversation(
  api: ApiClient,
  setPath: string,
  file: ConversationsFile,
): Promise<string[]> {
  const cases = await fetchAllPages<{ id: string; name: string }>(api, `${setPath}/cases`);
  return missingCases(cases, file.items).map((c) => c.name);
}

/**
 * Imports the file's conversations for the set in one all-or-nothing batch and returns case id → conversation id,
 * what the trigger takes with `run_selection: "explicit"`. An invalid item is reported at its line (JSONL) or index.
 */
export async function importConversations(
  api: ApiClient,
  agentPath: string,
  set: GateSet,
  file: ConversationsFile,
  fileName: string,
): Promise<Record<string, string>> {
  try {
    const { data } = await api.post<{ data: { imported: number; conversations: Record<string, string> } }>(
      `${agentPath}/runs/import/batch?eval_set=${encodeURIComponent(set.id)}`,
      file.items,
    );
    process.stderr.write(`imported ${data.imported} conversations from ${fileName}\n`);
    return data.conversations;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // Every invalid item the api lists, each at its place in the file.
    const listed = Array.isArray(error.details)
      ? (error.details as Array<{ field?: unknown; message?: unknown }>)
          .filter((d) => typeof d.field === 'string' && typeof d.message === 'string')
          .map((d) => `${d.field}: ${d.message}`)
      : [];
    const message = listed.length > 1 ? listed.join('\n') : error.message;
    throw new ApiError(error.status, error.code, pointAtItems(message, file, fileName), error.details);
  }
}
