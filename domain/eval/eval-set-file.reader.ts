import { z } from 'zod';
import { adkEvalSetSchema, adkSetName, adkSourceOf, caseFromAdk, isAdkEvalSet } from './adk-eval-set';
import { adkTestListToEvalSet, adkWebListToEvalSet, isAdkTestList, isAdkWebList, legacyField } from './adk-legacy';
import { caseFieldsOf } from './eval-fields';
import { evalSetNotes, type ImportNote } from './adk-import-notes';
import type { CaseTurn, ConversationScenario } from './case-turns';
import type { MockPolicy, ToolMock } from './tool-mocks';
import { evalSetFileCase, evalSetFileSchema } from './eval-set-file.schema';
import { fieldPath, issuesAt, type FieldProblem } from '../field-problems';
import { LIMITS } from '../limits';
import { DEFAULT_TRAJECTORY_MATCH } from '../trajectory/trajectory-modes';
import type { MinScores } from '../scoring/criteria';
import type { SimulatorSettings } from './simulator-settings';
import type { ExpectedCall } from '../trajectory/expected-call';
import type { TrajectoryMatch } from '../trajectory/trajectory-modes';

/** The kinds of file an import reads. */
export type ImportFormat = 'assay' | 'adk' | 'jsonl';

/** The stored fields of one case an import writes. */
export interface ImportCase {
  name: string;
  session_input: { message: string } & Record<string, unknown>;
  expected_trajectory: ExpectedCall[] | null;
  /** Absent: `lcs` (an ADK file, a case written before modes existed). */
  trajectory_match?: TrajectoryMatch;
  expected_final_response: string | null;
  /** Case-level rubrics (the whole conversation's; a one-turn case's reply). */
  rubrics: string[] | null;
  /** A case of turns (the fields above then mirror turn 0); absent or null: one turn. */
  turns?: CaseTurn[] | null;
  state?: Record<string, unknown> | null;
  final_state?: Record<string, unknown> | null;
  conversation_scenario?: ConversationScenario | null;
  tool_mocks?: ToolMock[] | null;
  /** Rubrics about the tool calls (`rubric_based_tool_use`). */
  tool_use_rubrics?: string[] | null;
}

/** A case of the file and where it stands in it (`cases[3]`), with the field that holds its name. */
export interface LocatedCase {
  at: string;
  nameField: string;
  fields: ImportCase;
}

/** The set's settings a file carries (an ADK file and JSONL carry a name and description at most). */
export interface ImportedSetSettings {
  name?: string;
  description?: string;
  min_scores?: Partial<MinScores>;
  judge_samples?: number;
  simulator?: SimulatorSettings | null;
  tool_mocks?: ToolMock[] | null;
  mock_policy?: MockPolicy;
  simulate_tool_responses?: boolean;
}

/** A file read whole: its cases, or every invalid field, or a case count over `casesPerEvalSet`. */
export type ImportRead =
  | { format: ImportFormat; set: ImportedSetSettings; cases: LocatedCase[]; notes?: ImportNote[] }
  | { problems: FieldProblem[] }
  | { tooMany: number };

type CaseRead = { fields: ImportCase } | { problems: FieldProblem[] };

type Issue = { path: PropertyKey[]; message: string };
const nativeField = (at: string) => (issue: Issue) => ({ field: fieldPath(at, issue.path), message: issue.message });
// An ADK case is named by the field the value came from; the message says which Assay field it became.
const adkField = (at: string, scenario: boolean) => (issue: Issue) => ({
  field: `${at}.${adkSourceOf(issue.path, scenario)}`,
  message: `${fieldPath('', issue.path)}: ${issue.message}`,
});

function readCase(value: unknown, describe: (issue: Issue) => FieldProblem): CaseRead {
  const parsed = evalSetFileCase.safeParse(value);
  if (!parsed.success) return { problems: parsed.error.issues.map(describe) };
  return {
    fields: {
      ...caseFieldsOf(parsed.data),
      trajectory_match: parsed.data.trajectory_match ?? DEFAULT_TRAJECTORY_MATCH,
    },
  };
}

// Every case read, every problem kept: a file is refused with all its invalid cases named, not the first.
function readCases(values: unknown[], read: (value: unknown, index: number) => CaseRead, nameField: string) {
  const cases: LocatedCase[] = [];
  const problems: FieldProblem[] = [];
  const seen = new Map<string, string>();
  values.forEach((value, index) => {
    const outcome = read(value, index);
    if ('problems' in outcome) return problems.push(...outcome.problems);
    const at = nameField === 'eval_id' ? `eval_cases[${index}]` : `cases[${index}]`;
    const first = seen.get(outcome.fields.name);
    if (first) problems.push({ field: `${at}.${nameField}`, message: `the name is already used by ${first}` });
    else seen.set(outcome.fields.name, at);
    cases.push({ at, nameField, fields: outcome.fields });
  });
  return { cases, problems };
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

// The cases are read one by one, so a file names every invalid case and every repeated name at once.
const nativeOutside = evalSetFileSchema.extend({ cases: z.array(z.unknown()).max(LIMITS.casesPerEvalSet) });

function readNative(value: unknown): ImportRead {
  const outside = nativeOutside.safeParse(value);
  const cases = isObject(value) && Array.isArray(value.cases) ? value.cases : [];
  const read = readCases(cases, (item, i) => readCase(item, nativeField(`cases[${i}]`)), 'name');
  const problems = [...(outside.success ? [] : issuesAt('', outside.error)), ...read.problems];
  if (!outside.success || problems.length) return { problems };
  const { cases: _cases, $schema: _schema, format: _format, ...set } = outside.data;
  return { format: 'assay', set, cases: read.cases };
}

function readAdk(value: unknown): ImportRead {
  const parsed = adkEvalSetSchema.safeParse(value);
  if (!parsed.success) return { problems: issuesAt('', parsed.error) };
  const { eval_cases: values, description } = parsed.data;
  if (values.length > LIMITS.casesPerEvalSet) return { tooMany: values.length };
  const notes = isObject(value) ? evalSetNotes(value) : [];
  const read = readCases(
    values,
    (item, i) => {
      const mapped = caseFromAdk(item, `eval_cases[${i}]`);
      if ('problems' in mapped) return mapped;
      notes.push(...mapped.notes);
      return readCase(mapped.case, adkField(`eval_cases[${i}]`, mapped.scenario));
    },
    'eval_id',
  );
  if (read.problems.length) return { problems: read.problems };
  const name = adkSetName(parsed.data);
  return { format: 'adk', set: { name, description: description ?? undefined }, cases: read.cases, notes };
}

const nativeSettings = evalSetFileSchema.pick({
  name: true,
  description: true,
  min_scores: true,
  judge_samples: true,
  simulator: true,
  tool_mocks: true,
  mock_policy: true,
  simulate_tool_responses: true,
});

/** The set settings a parsed JSON file carries, as far as they are valid (to create the set a file names). */
export function fileSetSettings(value: unknown, legacyName?: string): ImportedSetSettings {
  if (isAdkTestList(value) || isAdkWebList(value)) return legacyName ? { name: legacyName } : {};
  if (isAdkEvalSet(value)) {
    const adk = adkEvalSetSchema.safeParse(value);
    return adk.success ? { name: adkSetName(adk.data), description: adk.data.description ?? undefined } : {};
  }
  const native = nativeSettings.partial().strip().safeParse(value);
  if (native.success) return native.data;
  // Invalid settings are the import's to name; the set's name still says where the cases go.
  return isObject(value) && typeof value.name === 'string' ? { name: value.name } : {};
}

/** How a read names what the file does not: the case of an old `.test.json` list, the set of an `adk web` list. */
export interface ReadOptions {
  /** Default `test`; ADK names that case by the file's path, the CLI gives the file's name. */
  legacyName?: string;
}

function readAdkList(value: unknown[], name: string): ImportRead {
  const converted = isAdkTestList(value) ? adkTestListToEvalSet(value, name) : adkWebListToEvalSet(value, name);
  if ('problems' in converted) return converted;
  const read = readAdk(converted.evalSet);
  if (!('problems' in read)) return read;
  return { problems: read.problems.map((p) => ({ ...p, field: legacyField(p.field, value) })) };
}

/**
 * Reads a parsed JSON document: an Assay eval set file, an ADK eval set (`eval_cases`), or one of ADK's older
 * lists (the `.test.json` list of queries, the `adk web` list of `{name, data, initial_state}`).
 */
export function readEvalSetJson(value: unknown, options: ReadOptions = {}): ImportRead {
  if (isAdkEvalSet(value)) return readAdk(value);
  if (isAdkTestList(value) || isAdkWebList(value)) return readAdkList(value, options.legacyName ?? 'test');
  if (Array.isArray(value))
    return {
      problems: [
        {
          field: '(body)',
          message: 'must be an eval set file or an ADK eval set (an object); send a list of cases as JSONL',
        },
      ],
    };
  if (isObject(value) && Array.isArray(value.cases) && value.cases.length > LIMITS.casesPerEvalSet)
    return { tooMany: value.cases.length };
  return readNative(value);
}

/** JSONL is split by the one parser of bulk bodies (`cases[<i>]` names a line that is not JSON). */
export { parseJsonLines } from '../json/json-lines';

/** Reads the values of JSONL, one case each. */
export function readEvalSetJsonLines(values: unknown[]): ImportRead {
  const read = readCases(values, (item, i) => readCase(item, nativeField(`cases[${i}]`)), 'name');
  return read.problems.length ? { problems: read.problems } : { format: 'jsonl', set: {}, cases: read.cases };
}
