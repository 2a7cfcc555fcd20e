/** How every logged error reads: its class name and message, never its stack or its own fields (they may hold secrets). */
export interface LoggedError {
  name?: string;
  message: string;
}

/** The `err` field for a caught value, to spread into a log call: `logger.warn({ ...logError(error), run_id }, '…')`. */
export function logError(error: unknown): { err: LoggedError } {
  if (error instanceof Error) return { err: { name: error.name, message: error.message } };
  const message = (error as { message?: unknown } | null)?.message;
  return { err: { message: typeof message === 'string' ? message : String(error) } };
}
