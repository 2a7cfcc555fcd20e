import { setTimeout as sleep } from 'node:timers/promises';
import { SingleBar } from 'cli-progress';
import { ApiError, type ApiClient } from './api-client';
import { EXIT } from './exit-codes';
import type { EvalRunJson } from './eval-run.types';

/** Why the command stopped waiting: `--timeout` ran out, or Ctrl-C. */
export type StopReason = 'timeout' | 'interrupt';

/** `--timeout` and Ctrl-C, armed for the life of the command. */
export interface Stops {
  /** Aborted on the first stop. */
  signal: AbortSignal;
  reason(): StopReason | null;
  /** Clears the timer and gives SIGINT back its default. */
  dispose(): void;
}

/** How long a stopped command waits for its cancelled run to end before it exits anyway. */
const CANCEL_WAIT_MS = 30_000;
const STOP_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM'];

const ended = (run: EvalRunJson): boolean => ['completed', 'failed', 'cancelled'].includes(run.status);

/**
 * Arms the timer and the signal handlers: the first Ctrl-C or SIGTERM (what a CI runner sends a cancelled job), or
 * the timer, aborts `signal`; a second signal exits at once.
 */
export function armStops(timeoutSeconds: number | null, exitNow: () => void = () => process.exit(EXIT.error)): Stops {
  const controller = new AbortController();
  let reason: StopReason | null = null;
  const stop = (why: StopReason): void => {
    if (reason) return;
    reason = why;
    controller.abort(why);
  };
  const timer = timeoutSeconds === null ? null : setTimeout(() => stop('timeout'), timeoutSeconds * 1000);
  let interrupted = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (interrupted) {
      process.stderr.write(`${signal} again: exiting without waiting for the run to be cancelled\n`);
      exitNow();
      return;
    }
    interrupted = true;
    process.stderr.write(`${signal}: cancelling the run (Ctrl-C again to exit now)\n`);
    stop('interrupt');
  };
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
  return {
    signal: controller.signal,
    reason: () => reason,
    dispose() {
      if (timer) clearTimeout(timer);
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    },
  };
}

/** Resolves after `ms`, or at once when `signal` aborts. */
const pause = (ms: number, signal?: AbortSignal): Promise<void> =>
  sleep(ms, undefined, { signal }).catch(() => undefined);

/**
 * Polls the run until it ends (showing progress on stderr), or until `signal` aborts: then returns null and the run
 * is still going.
 */
export async function waitForRun(
  api: ApiClient,
  path: string,
  pollMs: number,
  signal: AbortSignal,
): Promise<EvalRunJson | null> {
  const bar = process.stderr.isTTY
    ? new SingleBar({ format: 'scoring [{bar}] {value}/{total} cases', stream: process.stderr })
    : null;
  let lastLine = '';
  try {
    while (!signal.aborted) {
      const { data: run } = await api.get<{ data: EvalRunJson }>(path);
      // A queued run has no case count yet: progress starts once its preflight has counted the cases.
      if (run.total_cases !== null && bar) {
        if (!bar.isActive) bar.start(run.total_cases, run.scored_cases);
        bar.setTotal(run.total_cases);
        bar.update(run.scored_cases);
      } else if (run.total_cases !== null && `${run.scored_cases}/${run.total_cases}` !== lastLine) {
        lastLine = `${run.scored_cases}/${run.total_cases}`;
        process.stderr.write(`scored ${lastLine} cases\n`);
      }
      if (ended(run)) return run;
      await pause(pollMs, signal);
    }
    return null;
  } finally {
    bar?.stop();
  }
}

/**
 * Cancels the run through the API and waits (a bounded time) for it to end; a run that ended meanwhile is left as
 * it is. Returns the run as last read.
 */
export async function cancelRun(api: ApiClient, path: string, pollMs: number): Promise<EvalRunJson> {
  try {
    await api.post(`${path}/cancel`, undefined);
  } catch (error) {
    if (!(error instanceof ApiError && error.code === 'run_ended')) throw error;
  }
  const deadline = Date.now() + CANCEL_WAIT_MS;
  for (;;) {
    const { data: run } = await api.get<{ data: EvalRunJson }>(path);
    if (ended(run) || Date.now() > deadline) return run;
    await pause(pollMs);
  }
}

/** What a stopped command prints before it exits 2. */
export function stoppedMessage(run: EvalRunJson, why: StopReason, timeoutSeconds: number | null): string {
  const cause = why === 'timeout' ? `did not end within --timeout ${timeoutSeconds} s` : 'was interrupted';
  const notScored = run.summary?.not_scored;
  const outcome = ended(run)
    ? `ended ${run.status}: ${run.scored_cases} cases scored${notScored === undefined ? '' : `, ${notScored} not scored`}`
    : `was asked to cancel and is still ${run.status}`;
  return `eval run ${run.id} ${cause}; it ${outcome}`;
}
