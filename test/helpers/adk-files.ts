import fs from 'node:fs';
import path from 'node:path';
import { snakeCase } from '../../domain/eval/adk-schema';
import { adkBatch, type AdkEvalSetCheck, type AdkFileRequest } from './adk-oracle';

type Json = any;

/** The folder of the real ADK files (test/fixtures/adk/README.md names each one's source). */
export const ADK_FIXTURES_DIR = path.join(__dirname, '..', 'fixtures', 'adk');

const isConfig = (file: string): boolean => /(test|eval)_config\.json$/.test(file);
const inFolders = (keep: (file: string) => boolean): string[] =>
  fs
    .readdirSync(ADK_FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((dir) => fs.readdirSync(path.join(ADK_FIXTURES_DIR, dir.name)).map((f) => `${dir.name}/${f}`))
    .filter(keep)
    .sort();

/** Every real ADK eval set file, as `<owner>-<repo>/<file>`. */
export const ADK_SET_FILES = inFolders((file) => !isConfig(file));
/** Every real ADK eval config file. */
export const ADK_CONFIG_FILES = inFolders(isConfig);

export const fixtureText = (file: string): string => fs.readFileSync(path.join(ADK_FIXTURES_DIR, file), 'utf8');
export const fixtureJson = (file: string): Json => JSON.parse(fixtureText(file));

/** The name the CLI gives an old list's case (and the set of a legacy file): the file's name without extensions. */
export const legacyNameOf = (file: string): string => path.basename(file).replace(/(\.test|\.evalset)?\.json$/i, '');

/** Whether the file is one of ADK's lists before the EvalSet (ADK converts it on load). */
export const isLegacyList = (value: Json): boolean => Array.isArray(value);

/** The cases a file holds, each with its turns counted from the raw file (a scenario has none). */
export function expectedShape(file: string): Array<{ name: string; turns: number }> {
  const value = fixtureJson(file);
  if (Array.isArray(value) && value.every((item) => 'query' in item))
    return [{ name: legacyNameOf(file), turns: value.length }];
  if (Array.isArray(value)) return value.map((item) => ({ name: item.name, turns: item.data.length }));
  return (value.eval_cases ?? value.evalCases).map((c: Json) => ({
    name: c.eval_id ?? c.evalId,
    turns: (c.conversation ?? []).length,
  }));
}

// ADK loads an eval set with its EvalSet model, and converts an older list on load. ADK's outer `EvalSet` (unlike
// its cases) has no camelCase aliases: the camelCase file (trpc-agent-go's) gets its outer keys in snake_case.
function originalRequest(file: string): AdkFileRequest {
  const value = fixtureJson(file);
  if (isLegacyList(value)) return { command: 'convert_legacy', json: fixtureText(file), name: legacyNameOf(file) };
  if (!('evalCases' in value)) return { command: 'validate_eval_set', json: fixtureText(file) };
  const outer = Object.fromEntries(Object.entries(value).map(([key, item]) => [snakeCase(key), item]));
  return { command: 'validate_eval_set', json: JSON.stringify(outer) };
}

/** ADK's dump of each fixture and ADK's check of each fixture's export (`exports[i]` of `files[i]`), one python. */
export async function adkRoundTrips(
  files: readonly string[],
  exports: readonly string[],
): Promise<Array<{ file: string; original: AdkEvalSetCheck; exported: AdkEvalSetCheck }>> {
  const requests: AdkFileRequest[] = [
    ...files.map(originalRequest),
    ...exports.map((json) => ({ command: 'validate_eval_set' as const, json })),
  ];
  const answers = await adkBatch(requests);
  return files.map((file, i) => ({ file, original: answers[i], exported: answers[files.length + i] }));
}

/** The normalised ADK dumps of a round trip, asserting ADK loads both. */
export function comparedDumps(trip: { file: string; original: AdkEvalSetCheck; exported: AdkEvalSetCheck }): {
  original: Json;
  exported: Json;
} {
  if (!trip.original.ok) throw new Error(`ADK refuses the fixture ${trip.file}: ${trip.original.error}`);
  if (!trip.exported.ok) throw new Error(`ADK refuses the export of ${trip.file}: ${trip.exported.error}`);
  const original = normalisedDump(trip.original.dumped);
  // ADK's converter drops the `initial_state` of an `adk web` list; Assay keeps it as the case's state.
  if (trip.file.endsWith('eval_data1.evalset.json'))
    original.cases[0].session_input = { app_name: '', user_id: '', state: { session: {} } };
  return { original, exported: normalisedDump(trip.exported.dumped) };
}

// The text of a content as one string: Assay keeps a message as one text (parts joined by newlines) and no role.
const textOf = (content: Json): string | null => {
  const texts = (content?.parts ?? []).flatMap((p: Json) => (typeof p.text === 'string' ? [p.text] : []));
  return texts.length ? texts.join('\n') : null;
};

// Both shapes of intermediate data as calls and responses; ADK reads them alike (`get_all_tool_calls_with_responses`).
function toolsOf(data: Json): { tool_uses: Json[]; tool_responses: Json[] } {
  const parts = (data?.invocation_events ?? []).flatMap((event: Json) => event.content?.parts ?? []);
  const uses = data?.invocation_events ? parts.flatMap((p: Json) => p.function_call ?? []) : (data?.tool_uses ?? []);
  const responses = data?.invocation_events
    ? parts.flatMap((p: Json) => p.function_response ?? [])
    : (data?.tool_responses ?? []);
  return {
    tool_uses: uses.map((u: Json) => ({ name: u.name, args: u.args ?? {} })),
    tool_responses: responses.map((r: Json) => ({ name: r.name, response: r.response })),
  };
}

function invocationOf(invocation: Json): Json {
  const tools = toolsOf(invocation.intermediate_data);
  const reply = textOf(invocation.final_response);
  const rubrics = (invocation.rubrics ?? []).map((r: Json) => r.rubric_content.text_property);
  return {
    user: textOf(invocation.user_content),
    ...(reply ? { reply } : {}),
    ...(tools.tool_uses.length ? { tool_uses: tools.tool_uses } : {}),
    ...(tools.tool_responses.length ? { tool_responses: tools.tool_responses } : {}),
    ...(rubrics.length ? { rubrics } : {}),
  };
}

/**
 * An ADK dump as the round trip compares it. Each normalisation is where ADK itself is lossy or an id is made anew:
 * - `creation_timestamp` dropped (ADK stamps the time of writing), `invocation_id`, `rubric_id` and call ids dropped
 *   (Assay keeps none; the export makes them from positions), `eval_set_id`/`name` dropped (Assay names a set once);
 * - a content is its parts' text joined by newlines, without role (ADK writes "model", others "assistant" or none);
 *   parts that carry no text (null-filled, `thought_signature`) hold nothing Assay or ADK's evaluators read;
 * - a final response without text is no final response (ADK's own migration writes "" for a missing reference);
 * - `invocation_events` and `tool_uses`/`tool_responses` are the same calls and responses (ADK reads them alike);
 *   empty lists equal absent ones; sub-agents' `intermediate_responses` are dropped (Assay has no slot for them);
 * - cases in eval_id order (the export writes them in name order).
 */
export function normalisedDump(dump: Json): Json {
  return {
    description: dump.description ?? null,
    cases: [...dump.eval_cases]
      .sort((a, b) => (a.eval_id < b.eval_id ? -1 : 1))
      .map((c: Json) => ({
        eval_id: c.eval_id,
        ...(c.conversation ? { conversation: c.conversation.map(invocationOf) } : {}),
        ...(c.conversation_scenario ? { conversation_scenario: c.conversation_scenario } : {}),
        session_input: c.session_input ?? null,
        rubrics: (c.rubrics ?? []).map((r: Json) => r.rubric_content.text_property),
        final_session_state: c.final_session_state ?? {},
      })),
  };
}
