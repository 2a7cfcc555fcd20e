import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { ADK_PYTHON } from './adk-oracle';

const SCRIPT = path.join(__dirname, 'adk', 'adk_results.py');

/** ADK's verdict of one case: its final status and each metric's, by ADK's enum names. */
export interface AdkCaseVerdict {
  final: string;
  metrics: Record<string, string>;
}

/** The two result files ADK's code wrote (the document; a JSON string of it) and its verdicts per case. */
export interface AdkResultFiles {
  current: string;
  legacy: string;
  verdicts: Record<string, AdkCaseVerdict>;
}

/** Scores `request` (see test/fixtures/adk-results/README.md) with ADK's own code, writing the files under `outDir`. */
export function writeAdkResults(request: object, outDir: string): AdkResultFiles {
  const answer = execFileSync(ADK_PYTHON, [SCRIPT], {
    input: JSON.stringify({ ...request, out_dir: outDir }),
    encoding: 'utf8',
  });
  return JSON.parse(answer) as AdkResultFiles;
}
