import fs from 'node:fs';
import { LIMITS } from '../domain/limits';
import { apiClientFor, type ApiCommandOptions } from './api-client';

interface ImportedRun {
  run: { id: string; summary: { counts: { total: number; passed: number; failed: number } } | null };
  eval_set_result_id: string;
  unsupported: Array<{ criterion: string; reason: string }>;
}

const enc = encodeURIComponent;

/**
 * `assay eval-set import-results {agent} {set} {file}`: an ADK `*.evalset_result.json` (either encoding) becomes a
 * completed run of the set with ADK's verdicts; prints the run and every metric Assay has no criterion for.
 */
export async function evalSetImportResultsCommand(
  agent: string,
  set: string,
  file: string,
  options: ApiCommandOptions,
): Promise<void> {
  if (fs.statSync(file).size > LIMITS.adkResultBytes)
    throw new Error(`${file} is larger than ${LIMITS.adkResultBytes} bytes (limit adkResultBytes)`);
  const text = fs.readFileSync(file, 'utf8');
  const { data } = await apiClientFor(options).postText<{ data: ImportedRun }>(
    `/api/ai-agents/${enc(agent)}/eval-sets/${enc(set)}/adk-results`,
    text,
    'application/json',
  );
  const c = data.run.summary?.counts;
  const counts = c ? `: ${c.passed} passed, ${c.failed} failed of ${c.total}` : '';
  process.stdout.write(`imported ${data.eval_set_result_id} as run ${data.run.id}${counts}\n`);
  for (const u of data.unsupported) process.stdout.write(`unsupported: ${u.criterion}: ${u.reason}\n`);
}
