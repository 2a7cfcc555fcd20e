/** A task run every so often; `stop()` waits for a pass in progress. */
export interface Periodic {
  stop(): Promise<void>;
}

/**
 * Runs `task` every `intervalMs` (measured from the end of the previous pass, so passes never overlap); a failed
 * pass goes to `onError` and the next one runs as planned. The timer never keeps a process alive on its own.
 */
export function every(intervalMs: number, task: () => Promise<unknown>, onError: (error: unknown) => void): Periodic {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<unknown> = Promise.resolve();
  const schedule = (): void => {
    if (stopped) return;
    timer = setTimeout(() => {
      pass = task().catch(onError).finally(schedule);
    }, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await pass;
    },
  };
}
