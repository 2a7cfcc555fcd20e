import type { evalApi } from './eval-api';

/** A case promoted from an imported conversation whose message is `<prefix> <index>`. */
export interface PromotedCase {
  id: string;
  message: string;
}

/** Imports `count` conversations and promotes each into `set`, `width` at a time, through the HTTP API. */
export async function promoteCases(
  api: ReturnType<typeof evalApi>,
  agent: string,
  set: string,
  count: number,
  prefix = 'case',
  width = 20,
): Promise<PromotedCase[]> {
  const cases: PromotedCase[] = [];
  for (let start = 0; start < count; start += width) {
    const created = await Promise.all(
      Array.from({ length: Math.min(width, count - start) }, async (_, i) => {
        const message = `${prefix} ${start + i}`;
        const conversation = await api.importRun(agent, {
          session_input: { message },
          final_response: `answer ${start + i}`,
        });
        return { id: (await api.promote(agent, conversation.id, set)).id as string, message };
      }),
    );
    cases.push(...created);
  }
  return cases;
}
