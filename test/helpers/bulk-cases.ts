import type { evalApi } from './eval-api';

/** A case promoted from an imported run: its id and the user message its judge requests quote. */
export interface BulkCase {
  id: string;
  message: string;
}

/**
 * Imports `count` conversations ("case i" answered "answer i") and promotes each into the set, twenty at a time:
 * every case passes a judge that compares texts, since its expected answer is the one it gave.
 */
export async function promoteBulkCases(
  api: ReturnType<typeof evalApi>,
  agent: string,
  setId: string,
  count: number,
): Promise<BulkCase[]> {
  const cases: BulkCase[] = [];
  for (let start = 0; start < count; start += 20) {
    const created = await Promise.all(
      Array.from({ length: Math.min(20, count - start) }, async (_, i) => {
        const message = `case ${start + i}`;
        const conversation = await api.importRun(agent, {
          session_input: { message },
          final_response: `answer ${start + i}`,
        });
        return { id: (await api.promote(agent, conversation.id, setId)).id as string, message };
      }),
    );
    cases.push(...created);
  }
  return cases;
}
