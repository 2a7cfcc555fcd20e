/** An outbound call refused by the egress guard; the message names the target and range, never a secret. */
export class EgressBlockedError extends Error {
  readonly code = 'egress_blocked';

  constructor(readonly reason: string) {
    super(`blocked: ${reason}`);
    this.name = 'EgressBlockedError';
  }

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** A connection (TCP, and TLS for https) that did not complete within the guard's connect timeout. */
export class EgressTimeoutError extends Error {
  readonly code = 'egress_timeout';

  constructor(readonly timeoutMs: number) {
    super(`timeout after ${timeoutMs} ms`);
    this.name = 'EgressTimeoutError';
  }

  toJSON(): { code: string; message: string } {
    return { code: this.code, message: this.message };
  }
}

/** Finds an egress error in an error or its `cause` chain (undici's fetch wraps them in "fetch failed"). */
export function findEgressError(error: unknown): EgressBlockedError | EgressTimeoutError | undefined {
  for (let current = error, depth = 0; current instanceof Error && depth < 5; current = current.cause, depth++) {
    if (current instanceof EgressBlockedError || current instanceof EgressTimeoutError) return current;
  }
  return undefined;
}
