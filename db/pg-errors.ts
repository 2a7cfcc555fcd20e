/** True for a Postgres unique-constraint violation. */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string })?.code === '23505';
}

/** True when a `NOWAIT` lock found the row held by another transaction. */
export function isLockNotAvailable(error: unknown): boolean {
  return (error as { code?: string })?.code === '55P03';
}
