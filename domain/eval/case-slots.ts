/** How long a case slot's lease lasts unrenewed: a run that stopped (terminated, no worker) loses its slots after it. */
export const CASE_SLOT_LEASE_MS = 2 * 60_000;

/** How often a case in a slot renews its lease: three renewals in a row may be missed before it lapses. */
export const CASE_SLOT_RENEW_MS = 30_000;
