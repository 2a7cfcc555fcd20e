/** Activities that prove the worker is alive. */
export function createPlatformActivities() {
  return {
    /** Echoes the message with the worker's pid. */
    async ping(input: { message: string }): Promise<{ message: string; worker_pid: number }> {
      return { message: input.message, worker_pid: process.pid };
    },
  };
}

export type PlatformActivities = ReturnType<typeof createPlatformActivities>;
