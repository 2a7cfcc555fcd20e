import { spawn } from 'node:child_process';
import path from 'node:path';

/** One check of the suite's result (`--verbose` prints them as JSON). */
export interface ConformanceCheck {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

/** How a scenario ended: the suite's exit code (0 only when it printed OVERALL: PASSED), its checks and its log. */
export interface ScenarioOutcome {
  code: number | null;
  checks: ConformanceCheck[];
  stderr: string;
}

const ROOT = path.resolve(__dirname, '../../..');
const SUITE = path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
// The suite splits the command on spaces and runs it in a shell, the server URL appended.
const DRIVER = `${process.execPath} --require tsx/cjs ${path.join(__dirname, 'main.ts')}`;

/** Runs `conformance client --scenario <name>` against the driver, which drives the api at `apiUrl` with `token`. */
export function runClientScenario(
  scenario: string,
  api: { apiUrl: string; token: string; publicUrl?: string },
  timeoutMs = 150_000,
): Promise<ScenarioOutcome> {
  const args = [
    SUITE,
    'client',
    '--command',
    DRIVER,
    '--scenario',
    scenario,
    '--timeout',
    String(timeoutMs),
    '--verbose',
  ];
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: {
      ...process.env,
      ASSAY_CONFORMANCE_API: api.apiUrl,
      ASSAY_CONFORMANCE_TOKEN: api.token,
      ASSAY_CONFORMANCE_PUBLIC_URL: api.publicUrl ?? api.apiUrl,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const json = stdout.slice(stdout.indexOf('['), stdout.lastIndexOf(']') + 1);
      let checks: ConformanceCheck[] = [];
      try {
        checks = JSON.parse(json) as ConformanceCheck[];
      } catch {
        // No checks printed (the suite failed to start): the code and the log say why.
      }
      resolve({ code, checks, stderr });
    });
  });
}
