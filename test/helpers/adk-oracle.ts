import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The python of the venv `scripts/provision.sh test` installs google-adk into. */
export const ADK_PYTHON = path.join(__dirname, '..', '..', '.tools', 'adk-venv', 'bin', 'python');
const ORACLE = path.join(__dirname, 'adk', 'adk_oracle.py');

/** Whether the ADK venv is there; tests assert it (provisioning guarantees it), so a missing one fails, not skips. */
export const adkVenvExists = (): boolean => fs.existsSync(ADK_PYTHON);

/** One tool call for ADK; `argsText` is a JSON object's text, sent verbatim so `2.0` reaches Python as a float. */
export interface AdkCall {
  name: string;
  argsText: string;
}

export type AdkMatchType = 'EXACT' | 'IN_ORDER' | 'ANY_ORDER';

export interface AdkTrajectoryPair {
  expected: readonly AdkCall[];
  actual: readonly AdkCall[];
  match_type: AdkMatchType;
}

/** ADK's verdict on one pair: its invocation score (1.0 or 0.0) and whether it passed the threshold 1.0. */
export interface AdkVerdict {
  score: number;
  passed: boolean;
}

export type AdkEvalSetCheck = { ok: true; dumped: Record<string, unknown> } | { ok: false; error: string };

/** Sends one request text to `adk_oracle.py` and parses its one answer; a non-zero exit throws with its stderr. */
export function askAdk<T>(requestText: string): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(ADK_PYTHON, [ORACLE], { stdio: ['pipe', 'pipe', 'pipe'] });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    // A python that dies before reading its request breaks the pipe; its exit code and stderr then say why.
    child.stdin.on('error', () => undefined);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`adk_oracle.py exited with ${code}: ${stderr}`));
      else resolve(JSON.parse(stdout) as T);
    });
    child.stdin.end(requestText);
  });
}

const callText = (call: AdkCall): string => `{"name":${JSON.stringify(call.name)},"args":${call.argsText}}`;
const callsText = (calls: readonly AdkCall[]): string => `[${calls.map(callText).join(',')}]`;

/** ADK's `TrajectoryEvaluator` verdicts on all pairs, in order, from one python process. */
export async function adkTrajectoryVerdicts(pairs: readonly AdkTrajectoryPair[]): Promise<AdkVerdict[]> {
  const pairTexts = pairs.map(
    (pair) =>
      `{"expected":${callsText(pair.expected)},"actual":${callsText(pair.actual)},"match_type":"${pair.match_type}"}`,
  );
  const answer = await askAdk<{ verdicts: AdkVerdict[] }>(`{"command":"trajectory","pairs":[${pairTexts.join(',')}]}`);
  return answer.verdicts;
}

/** Whether ADK's `EvalSet` pydantic model loads `json`, and its dump (snake_case, no nulls) when it does. */
export const adkValidateEvalSet = (json: string): Promise<AdkEvalSetCheck> =>
  askAdk(JSON.stringify({ command: 'validate_eval_set', json }));

/** One request of a batch: an eval set to load, or an older ADK list to convert (its one case named `name`). */
export type AdkFileRequest =
  { command: 'validate_eval_set'; json: string } | { command: 'convert_legacy'; json: string; name: string };

/** ADK's answers to many requests from one python process (ADK takes seconds to import), in order. */
export async function adkBatch(requests: readonly AdkFileRequest[]): Promise<AdkEvalSetCheck[]> {
  const answer = await askAdk<{ answers: Array<AdkEvalSetCheck | { dumped: Record<string, unknown> }> }>(
    JSON.stringify({ command: 'batch', requests }),
  );
  return answer.answers.map((one) => ('ok' in one ? one : { ok: true, dumped: one.dumped }));
}

/** One response to score against its reference, as ADK's `response_match_score` takes them. */
export interface AdkRougePair {
  reference: string;
  candidate: string;
}

/** ADK's ROUGE-1 F-measure (`final_response_match_v1`'s own function) of each pair, in order, from one python. */
export async function adkRougeOne(pairs: readonly AdkRougePair[]): Promise<number[]> {
  const answer = await askAdk<{ scores: number[] }>(JSON.stringify({ command: 'rouge1', pairs }));
  return answer.scores;
}
