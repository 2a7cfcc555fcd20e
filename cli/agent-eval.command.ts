import { apiClientFor, apiUrlFor, type ApiClient, type ApiCommandOptions } from './api-client';
import { fetchAllPages } from './api-pages';
import { fetchComparison } from './eval-compare-report';
import { casesWithoutConversation, importConversations, type GateSet } from './eval-gate-conversations';
import { readConversationsFile, type ConversationsFile } from './eval-gate-inputs';
import {
  parseBaseline,
  parseMinPassRate,
  parseMinRepeatPass,
  parseRepeats,
  parseTags,
  parseRegressionGate,
  parseTimeout,
  type Baseline,
  type RegressionGate,
} from './eval-gate-options';
import { writeGateReport } from './eval-gate-report';
import { parseMaxUnscored, type MaxUnscored } from './eval-gate-unscored';
import { armStops, cancelRun, stoppedMessage, waitForRun, type Stops } from './eval-run-watch';
import type { CaseResultJson, EvalRunJson } from './eval-run.types';
import { EXIT } from './exit-codes';

export interface AgentEvalOptions extends ApiCommandOptions {
  minPassRate: string;
  detailed?: boolean;
  junit?: string;
  /** A file, or `-` for stdout (the human report then goes to stderr, so stdout stays parseable). */
  json?: string;
  pollMs?: string;
  conversations?: string;
  requireAll?: boolean;
  tag?: string[];
  baseline?: string;
  /** `--fail-on-regression` bare (true) or with its mode. */
  failOnRegression?: boolean | string;
  alpha?: string;
  timeout?: string;
  /** False with `--no-cache`: the run judges every sample afresh. */
  cache?: boolean;
  repeats?: string;
  minRepeatPass?: string;
  /** `--max-unscored <n|pct>`: cases that may leave a criterion unscored (absent: not bounded). */
  maxUnscored?: string;
}

/** The command line, checked whole before the command sends anything. */
interface GatePlan {
  minPassRate: number;
  timeout: number | null;
  tags: string[];
  baseline: Baseline | null;
  file: ConversationsFile | null;
  pollMs: number;
  repeats: number | null;
  minRepeatPass: number | null;
  regressionGate: RegressionGate | null;
  maxUnscored: MaxUnscored | null;
  /** Where the API is, for the run page's URL. */
  apiUrl: string;
}

const enc = encodeURIComponent;

function readPlan(options: AgentEvalOptions): GatePlan {
  if (options.requireAll && !options.conversations) throw new Error('--require-all needs --conversations <file>');
  if (options.failOnRegression && !options.baseline) throw new Error('--fail-on-regression needs --baseline');
  const repeats = parseRepeats(options.repeats);
  return {
    repeats,
    minRepeatPass: parseMinRepeatPass(options.minRepeatPass, repeats),
    minPassRate: parseMinPassRate(options.minPassRate),
    timeout: parseTimeout(options.timeout),
    tags: parseTags(options.tag),
    baseline: parseBaseline(options.baseline),
    file: options.conversations ? readConversationsFile(options.conversations) : null,
    pollMs: Number(options.pollMs ?? 500),
    regressionGate: parseRegressionGate(options.failOnRegression, options.alpha),
    maxUnscored: parseMaxUnscored(options.maxUnscored),
    apiUrl: apiUrlFor(options),
  };
}

/** Where the human report goes: stdout, or stderr when `--json -` takes stdout. */
const reportStream = (options: AgentEvalOptions): NodeJS.WritableStream =>
  options.json === '-' ? process.stderr : process.stdout;

/**
 * The trigger body: offline with one judge sample (the spec's CI gate), the run's tags and repeats, `no_cache` with
 * `--no-cache`, and with `--conversations`
 * the imported conversation of each case (cases the file does not name fall back to their source conversation).
 * Null when `--require-all` finds cases without a conversation (printed by name).
 */
async function triggerBody(
  api: ApiClient,
  agentPath: string,
  set: GateSet,
  plan: GatePlan,
  options: AgentEvalOptions,
): Promise<Record<string, unknown> | null> {
  const body: Record<string, unknown> = { mode: 'offline', judge_samples: 1 };
  if (plan.tags.length) body.tags = plan.tags;
  if (options.cache === false) body.no_cache = true;
  if (plan.repeats !== null) body.repeats = plan.repeats;
  if (plan.minRepeatPass !== null) body.min_repeat_pass = plan.minRepeatPass;
  if (!plan.file || !options.conversations) return body;
  if (options.requireAll) {
    const missing = await casesWithoutConversation(api, `${agentPath}/eval-sets/${enc(set.id)}`, plan.file);
    if (missing.length) {
      reportStream(options).write(
        `FAILED: ${missing.length} cases of ${set.name} have no conversation in ${options.conversations} ` +
          `(--require-all): ${missing.join(', ')}\n`,
      );
      return null;
    }
  }
  const conversations = await importConversations(api, agentPath, set, plan.file, options.conversations);
  return { ...body, run_selection: 'explicit', conversations };
}

// A mistyped baseline id fails now, not after the whole run.
async function checkBaselineRun(api: ApiClient, agentPath: string, set: GateSet, runId: string): Promise<void> {
  const { data: run } = await api.get<{ data: EvalRunJson }>(`${agentPath}/eval-runs/${enc(runId)}`);
  if (run.eval_set_id !== set.id) throw new Error(`--baseline ${runId} is a run of another eval set than ${set.name}`);
}

type StartedRun = EvalRunJson & { agent_id: string };

/** The builder's page of a run (it needs the run's agent in `?agent=`). */
const runPageUrl = (apiUrl: string, run: StartedRun): string =>
  new URL(`/builder/runs/${enc(run.id)}?agent=${enc(run.agent_id)}`, apiUrl).href;

/** Runs the set until the run ends, or cancels it on `--timeout` or Ctrl-C (then exits 2 saying so). */
async function runToEnd(
  api: ApiClient,
  agentPath: string,
  set: GateSet,
  body: Record<string, unknown>,
  plan: GatePlan,
  stops: Stops,
): Promise<EvalRunJson | number> {
  const { data: started } = await api.post<{ data: StartedRun }>(`${agentPath}/eval-sets/${enc(set.id)}/run`, body);
  const runPath = `${agentPath}/eval-runs/${enc(started.id)}`;
  process.stderr.write(`eval run ${started.id} started: ${runPageUrl(plan.apiUrl, started)}\n`);
  const run = await waitForRun(api, runPath, plan.pollMs, stops.signal);
  if (run) return run;
  const why = stops.reason() ?? 'interrupt';
  process.stderr.write(`cancelling eval run ${started.id}\n`);
  const cancelled = await cancelRun(api, runPath, plan.pollMs);
  process.stderr.write(`${stoppedMessage(cancelled, why, plan.timeout)}\n`);
  return EXIT.error;
}

/** `assay agent:eval {agent} {evalSet}`: runs the set offline through the API and gates on the pass rate. */
export async function agentEvalCommand(agent: string, evalSet: string, options: AgentEvalOptions): Promise<number> {
  const plan = readPlan(options);
  const api = apiClientFor(options);
  const agentPath = `/api/ai-agents/${enc(agent)}`;
  const { data: set } = await api.get<{ data: GateSet }>(`${agentPath}/eval-sets/${enc(evalSet)}`);
  if (plan.baseline?.kind === 'run') await checkBaselineRun(api, agentPath, set, plan.baseline.id);
  const stops = armStops(plan.timeout);
  try {
    const body = await triggerBody(api, agentPath, set, plan, options);
    if (!body) return EXIT.gateFailed;
    if (stops.signal.aborted) {
      process.stderr.write(`stopped (${stops.reason()}) before the run was triggered\n`);
      return EXIT.error;
    }
    const run = await runToEnd(api, agentPath, set, body, plan, stops);
    if (typeof run === 'number') return run;
    if (run.status !== 'completed')
      throw new Error(`eval run ${run.id} ${run.status}: ${run.error ?? 'unknown error'}`);
    const runPath = `${agentPath}/eval-runs/${enc(run.id)}`;
    const results = await fetchAllPages<CaseResultJson>(api, `${runPath}/results`);
    const comparison = plan.baseline ? await fetchComparison(api, runPath, plan.baseline, plan.regressionGate) : null;
    return writeGateReport(reportStream(options), { set, run, results, comparison, plan, options });
  } finally {
    stops.dispose();
  }
}
