/** The longest lifetime of a personal token in days (TOKEN_MAX_DAYS), or `none` when the operator allows any. */
export type TokenMaxDays = number | 'none';

/** Why `days` of lifetime is refused for a personal token, or undefined when allowed. */
export function tokenLifetimeProblem(days: number | undefined, maxDays: TokenMaxDays): string | undefined {
  if (maxDays === 'none' || days === undefined || days <= maxDays) return undefined;
  return `at most ${maxDays} days (TOKEN_MAX_DAYS)`;
}

/**
 * When a new personal token expires: `days` after `now` (at most `maxDays`), else `maxDays` after it (`none`: never),
 * and never after `cap` (the expiry of the scoped token minting it).
 */
export function personalTokenExpiry(
  days: number | undefined,
  maxDays: TokenMaxDays,
  cap: Date | null,
  now: number,
): Date | null {
  const lifetime = maxDays === 'none' ? days : Math.min(days ?? maxDays, maxDays);
  const asked = lifetime === undefined ? null : new Date(now + lifetime * 86_400_000);
  if (asked === null || cap === null) return asked ?? cap;
  return asked < cap ? asked : cap;
}
