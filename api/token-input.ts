import { z } from 'zod';
import { personalTokenExpiry, tokenLifetimeProblem, type TokenMaxDays } from '../domain/tenancy/token-lifetime';
import { invalidField, limitExceeded } from './field-errors';
import type { HttpError } from './http-error';

/** The longest lifetime a token may be given, in days (about ten years). */
const MAX_EXPIRES_IN_DAYS = 3650;

/** What every token creation takes: a label, and optionally a lifetime (no expiry without one). */
export const tokenBody = z
  .object({
    name: z.string().trim().min(1).max(200),
    expires_in_days: z.number().int().min(1).max(MAX_EXPIRES_IN_DAYS).optional(),
  })
  .strict();

/** When a token given `days` of lifetime expires (null: never). */
export function expiryOf(days: number | undefined): Date | null {
  return days === undefined ? null : new Date(Date.now() + days * 86_400_000);
}

/** When a new personal token expires (see `personalTokenExpiry`); more days than TOKEN_MAX_DAYS is a 422. */
export function personalExpiry(days: number | undefined, maxDays: TokenMaxDays, cap: Date | null): Date | null {
  const problem = tokenLifetimeProblem(days, maxDays);
  if (problem) throw invalidField('expires_in_days', problem);
  return personalTokenExpiry(days, maxDays, cap, Date.now());
}

/** An optional time as the API writes it. */
export function isoOrNull(time: Date | null): string | null {
  return time?.toISOString() ?? null;
}

/** 422 for a creation over `activeTokensPerOwner`; `holder` says whose tokens are full. */
export function tooManyTokens(holder: string, count: number): HttpError {
  return limitExceeded('(body)', 'activeTokensPerOwner', 'items', `${holder} already holds ${count} active tokens`);
}

/** The fields of a token every listing shows; never the token or its hash. */
export const tokenSummaryJson = {
  id: z.string(),
  name: z.string(),
  prefix: z.string(),
  created_at: z.string(),
  expires_at: z.string().nullable(),
};
