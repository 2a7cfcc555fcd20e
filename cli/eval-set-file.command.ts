import fs from 'node:fs';
import path from 'node:path';
import { fileSetSettings, type ImportedSetSettings } from '../domain/eval/eval-set-file.reader';
import { LIMITS } from '../domain/limits';
import { ApiError, apiClientFor, type ApiClient, type ApiCommandOptions } from './api-client';

/** Options of `assay eval-set export` and `assay eval-set import`. */
export interface EvalSetFileOptions extends ApiCommandOptions {
  out?: string;
  set?: string;
  /** export: `assay` (default) or `adk`. */
  format?: string;
  /** import: an ADK test_config.json / eval_config.json applied to the set after the cases. */
  config?: string;
}

interface ImportResult {
  created: number;
  updated: number;
  unchanged: number;
  format: string;
  notes?: Array<{ field: string; message: string }>;
}

const enc = encodeURIComponent;

function client(options: EvalSetFileOptions): ApiClient {
  return apiClientFor(options);
}

// A refused import names every invalid case; the one-line message of the API names only the first.
function withDetails(error: unknown): unknown {
  if (!(error instanceof ApiError) || !Array.isArray(error.details) || error.details.length < 2) return error;
  const lines = (error.details as Array<{ field?: string; message?: string }>).map((d) => `  ${d.field}: ${d.message}`);
  return new Error(`${error.details.length} problems, nothing imported:\n${lines.join('\n')}`);
}

/** `assay eval-set export {agent} {set}`: writes the set and its cases as a file (stdout without `--out`). */
export async function evalSetExportCommand(agent: string, set: string, options: EvalSetFileOptions): Promise<void> {
  const api = client(options);
  const format = options.format ?? 'assay';
  if (format !== 'assay' && format !== 'adk') throw new Error(`--format must be assay or adk, not ${format}`);
  const file = await api.get<{ name: string; cases?: unknown[]; eval_cases?: unknown[] }>(
    `/api/ai-agents/${enc(agent)}/eval-sets/${enc(set)}/export${format === 'adk' ? '?format=adk' : ''}`,
  );
  const text = `${JSON.stringify(file, null, 2)}\n`;
  if (options.out) {
    fs.writeFileSync(options.out, text);
    const count = (file.cases ?? file.eval_cases ?? []).length;
    process.stderr.write(
      `exported ${count} cases of ${file.name} to ${options.out}${format === 'adk' ? ' (adk)' : ''}\n`,
    );
  } else process.stdout.write(text);
}

// JSONL by its extension; anything else is JSON (an Assay file, or an ADK *.evalset.json / *.test.json).
const isJsonLines = (file: string): boolean => /\.(jsonl|ndjson)$/i.test(file);

// ADK names the one case of an old `.test.json` list by the file; Assay by its name without the extension.
const legacyName = (file: string): string => path.basename(file).replace(/(\.test|\.evalset)?\.json$/i, '');

function readSettings(file: string, text: string): ImportedSetSettings {
  if (isJsonLines(file)) return {};
  try {
    return fileSetSettings(JSON.parse(text), legacyName(file));
  } catch {
    throw new Error(`${file} is not valid JSON`);
  }
}

// The set the file goes into; when missing it is created with the file's settings.
async function ensureSet(api: ApiClient, base: string, name: string, settings: ImportedSetSettings): Promise<string> {
  try {
    return (await api.get<{ data: { id: string } }>(`${base}/eval-sets/${enc(name)}`)).data.id;
  } catch (error) {
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  const { name: _name, ...rest } = settings;
  const created = await api.post<{ data: { id: string } }>(`${base}/eval-sets`, { ...rest, name });
  process.stderr.write(`created eval set ${name}\n`);
  return created.data.id;
}

/** `assay eval-set import {agent} {file}`: upserts the file's cases by name into the set (`--set`, else the file's). */
export async function evalSetImportCommand(agent: string, file: string, options: EvalSetFileOptions): Promise<void> {
  const api = client(options);
  if (fs.statSync(file).size > LIMITS.importBodyBytes)
    throw new Error(`${file} is larger than ${LIMITS.importBodyBytes} bytes (limit importBodyBytes)`);
  const text = fs.readFileSync(file, 'utf8');
  const settings = readSettings(file, text);
  const name = options.set ?? settings.name;
  if (!name) throw new Error(`${file} names no eval set: give --set <name>`);
  const base = `/api/ai-agents/${enc(agent)}`;
  const setId = await ensureSet(api, base, name, settings);
  const type = isJsonLines(file) ? 'application/x-ndjson' : 'application/json';
  const { data } = await api
    .postText<{ data: ImportResult }>(
      `${base}/eval-sets/${enc(setId)}/cases/import?legacy_name=${enc(legacyName(file))}`,
      text,
      type,
    )
    .catch((error: unknown) => Promise.reject(withDetails(error)));
  const total = data.created + data.updated + data.unchanged;
  process.stdout.write(
    data.created + data.updated === 0
      ? `nothing changed: all ${total} cases of ${name} are unchanged\n`
      : `imported ${total} cases into ${name} (${data.format}): ${data.created} created, ${data.updated} updated, ${data.unchanged} unchanged\n`,
  );
  for (const note of data.notes ?? []) process.stdout.write(`not imported: ${note.field}: ${note.message}\n`);
  if (options.config) await applyConfig(api, `${base}/eval-sets/${enc(setId)}`, options.config);
}

interface ConfigResult {
  eval_set: { min_scores: Record<string, number>; judge_samples: number };
  cases_updated: number;
  trajectory_match: string | null;
  rubrics: string[];
  tool_use_rubrics: string[];
  unsupported: Array<{ criterion: string; reason: string }>;
}

// The config goes to the API as read; what Assay has not is listed, one line each, never dropped silently.
async function applyConfig(api: ApiClient, setPath: string, file: string): Promise<void> {
  const text = fs.readFileSync(file, 'utf8');
  const { data } = await api
    .postText<{ data: ConfigResult }>(`${setPath}/adk-config`, text, 'application/json')
    .catch((error: unknown) => Promise.reject(withDetails(error)));
  const mode = data.trajectory_match ? `, trajectory_match ${data.trajectory_match}` : '';
  process.stdout.write(
    `applied ${file}: min_scores ${JSON.stringify(data.eval_set.min_scores)}, judge_samples ` +
      `${data.eval_set.judge_samples}${mode}, ${data.rubrics.length} rubrics and ${data.tool_use_rubrics.length} tool-use rubrics on every case ` +
      `(${data.cases_updated} cases updated)\n`,
  );
  for (const u of data.unsupported) process.stdout.write(`unsupported: ${u.criterion}: ${u.reason}\n`);
}
