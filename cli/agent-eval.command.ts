import fs from 'node:fs';
import { SingleBar } from 'cli-progress';
import { LIMITS } from '../domain/limits';
import { createApiClient, type ApiClient } from './api-client';
import { EXIT } from './exit-codes';
import { renderDetails, renderJunit, renderSummary, renderTable } from './eval-report';
import type { CaseResultJson, EvalRunJson } from './eval-run.types';

export interface AgentEvalOptions {
  minPassRate: string;
  detailed?: boolean;
  junit?: string;
  json?: string;
  url?: string;
  token?: string;
  pollMs?: string;
}

const enc = encodeURIComponent;

function parseMinPassRate(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 1)
    throw new Error('--min-pass-rate must be a number from 0 to 1');
  return n;
}

async function waitForRun(api: ApiClient, path: string, pollMs: number): Promise<EvalRunJson> {
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: 'scoring [{bar}] {value}/{total} cases', stream: process.stderr })
    : null;
  let lastLine = '';
  for (;;) {
    const { data: run } = await api.get<{ data: EvalRunJson }>(path);
    const scored = run.scored_cases;
    const total = run.total_cases ?? 0;
    // A queued run has no case count yet: progress starts once its preflight has counted the cases.
    const known = run.total_cases !== null;
    if (known && bar) {
      if (!bar.isActive) bar.start(total, scored);
      bar.setTotal(total);
      bar.update(scored);
    } else if (known && `${scored}/${total}` !== lastLine) {
      lastLine = `${scored}/${total}`;
      process.stderr.write(`scored ${lastLine} cases\n`);
    }
    if (run.status === 'completed' || run.status === 'failed' || run.status === 'cancelled') {
      bar?.stop();
      return run;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

// Every result of the run, following `next_cursor` in the largest pages the API serves.
async function fetchResults(api: ApiClient, path: string): Promise<CaseResultJson[]> {
  const results: CaseResultJson[] = [];
  let cursor: string | null = null;
  do {
    const page: { data: CaseResultJson[]; next_cursor?: string | null } = await api.get(
      `${path}?limit=${LIMITS.pageMax}${cursor ? `&cursor=${enc(cursor)}` : ''}`,
    );
    results.push(...page.data);
    cursor = page.next_cursor ?? null;
  } while (cursor);
  return results;
}

/** `assay agent:eval {agent} {evalSet}`: runs the set offline through the API and gates on the pass rate. */
export async function agentEvalCommand(agent: string, evalSet: string, options: AgentEvalOptions): Promise<number> {
  const minPassRate = parseMinPassRate(options.minPassRate);
  const token = options.token ?? process.env.ASSAY_TOKEN;
  if (!token) throw new Error('ASSAY_TOKEN (or --token) is required');
  const api = createApiClient(options.url ?? process.env.ASSAY_URL ?? 'http://127.0.0.1:3000', token);
  const base = `/api/ai-agents/${enc(agent)}`;
  const { data: set } = await api.get<{ data: { id: string; name: string } }>(`${base}/eval-sets/${enc(evalSet)}`);
  // The spec's CI gate: always offline and without sampling (one judge verdict per criterion).
  const trigger = { mode: 'offline', judge_samples: 1 };
  const { data: started } = await api.post<{ data: EvalRunJson }>(`${base}/eval-sets/${enc(set.id)}/run`, trigger);
  const runPath = `${base}/eval-runs/${enc(started.id)}`;
  const run = await waitForRun(api, runPath, Number(options.pollMs ?? 500));
  if (run.status !== 'completed') throw new Error(`eval run ${run.id} ${run.status}: ${run.error ?? 'unknown error'}`);
  const results = await fetchResults(api, `${runPath}/results`);
  process.stdout.write(`${renderTable(results)}\n${renderSummary(run, minPassRate)}\n`);
  if (options.detailed) process.stdout.write(`\n${renderDetails(results) || 'no failed criteria'}\n`);
  if (options.junit) fs.writeFileSync(options.junit, renderJunit(set.name, run, results));
  if (options.json) fs.writeFileSync(options.json, `${JSON.stringify({ run, results }, null, 2)}\n`);
  const passRate = run.summary?.pass_rate ?? 0;
  process.stdout.write(
    passRate >= minPassRate
      ? 'PASSED\n'
      : `FAILED: pass rate ${passRate.toFixed(2)} is below ${minPassRate.toFixed(2)}\n`,
  );
  return passRate >= minPassRate ? EXIT.ok : EXIT.gateFailed;
}
