/** Holds scripted judge replies until the test lets them through, so a run's progress is paced by the test. */
export interface JudgeGate {
  /** Resolves when a permit is available (call it from the scripted LLM's handler). */
  acquire(): Promise<void>;
  /** Lets `count` more replies through (Infinity opens the gate). */
  release(count: number): void;
}

/** A closed gate: no reply goes through until `release`. */
export function judgeGate(): JudgeGate {
  let permits = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire() {
      if (permits > 0) {
        permits--;
        return Promise.resolve();
      }
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
    release(count) {
      permits += count;
      while (permits > 0 && waiting.length > 0) {
        permits--;
        waiting.shift()?.();
      }
    },
  };
}
