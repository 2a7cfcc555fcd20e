import { referencedSecrets } from './mcp-headers';

/** Where a server sends its secrets: the url and the headers that carry `$SECRET` references. */
export interface SecretDestination {
  url?: string;
  headers?: Record<string, string>;
}

/** A change that would send stored secrets somewhere they were not given for: the field that moved them. */
export interface SecretMove {
  field: string;
  reason: string;
}

function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * The first change from `before` to `after` that moves stored secrets: another scheme, host or port (the URL's
 * origin), or any header added, removed, renamed or changed whose old or new value references a secret. Such a
 * change is allowed only with the secrets given again, so a secret reaches only the place it was given for.
 */
export function secretMove(before: SecretDestination, after: SecretDestination): SecretMove | undefined {
  if (originOf(before.url) !== originOf(after.url))
    return { field: 'config.url', reason: 'changes the scheme, host or port the stored secrets are sent to' };
  const old = before.headers ?? {};
  const next = after.headers ?? {};
  const has = (headers: Record<string, string>, name: string): boolean =>
    Object.prototype.hasOwnProperty.call(headers, name);
  for (const name of new Set([...Object.keys(old), ...Object.keys(next)])) {
    const was = has(old, name) ? old[name] : undefined;
    const is = has(next, name) ? next[name] : undefined;
    if (was === is) continue;
    if (referencedSecrets(was ?? '').length > 0 || referencedSecrets(is ?? '').length > 0)
      return { field: `config.headers.${name}`, reason: 'changes a header that carries a stored secret' };
  }
  return undefined;
}

/** True when a provider's base URL changes (unset means the provider's default), which moves its stored key. */
export function baseUrlMoves(before: string | null, after: string | null): boolean {
  const normal = (url: string | null): string | null => {
    if (url === null) return null;
    try {
      return new URL(url).href;
    } catch {
      return url;
    }
  };
  return normal(before) !== normal(after);
}
