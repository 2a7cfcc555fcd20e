/** Names of secrets: upper-case, digits and underscores, as `$<SECRET_NAME>` references spell them. */
export const SECRET_NAME = /^[A-Z][A-Z0-9_]{0,63}$/;

/** A rejected header, with the reason. */
export interface HeaderIssue {
  header: string;
  message: string;
}

const REFERENCE = /\$([A-Z][A-Z0-9_]*)/g;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,128}$/;
const CREDENTIAL_HEADER =
  /authori[sz]ation|cookie|api[-_]?key|apikey|token|secret|passw(or)?d|credential|session|signature|auth|-key$/i;
const SCHEME_THEN_REFERENCE = /^(?:[A-Za-z][A-Za-z0-9-]*\s+)?\$[A-Z][A-Z0-9_]*$/;
const MANAGED_HEADERS: ReadonlySet<string> = new Set([
  'host',
  'content-length',
  'content-type',
  'accept',
  'connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
]);
const CREDENTIAL_VALUES: readonly RegExp[] = [
  /^(bearer|basic|digest|token|bot)\s+\S/i,
  /\b[sprk]k_(live|test)_/,
  /^(ghp_|gho_|github_pat_|xox[abprs]-|glpat-|AKIA[0-9A-Z]{12})/,
  /^eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/,
];

/** The secret names a header value references as `$NAME`. */
export function referencedSecrets(value: string): string[] {
  return [...value.matchAll(REFERENCE)].map((match) => match[1]);
}

// A long run of mixed letters and digits reads like a key rather than a workspace id or a version.
function looksLikeKey(text: string): boolean {
  return (text.match(/[A-Za-z0-9_\-+/=]{24,}/g) ?? []).some((run) => /[0-9]/.test(run) && /[A-Za-z]/.test(run));
}

/** True when a literal header value looks like a credential (scheme plus token, vendor key prefixes, a JWT, a key). */
export function looksLikeCredential(literal: string): boolean {
  const text = literal.trim();
  return CREDENTIAL_VALUES.some((pattern) => pattern.test(text)) || looksLikeKey(text);
}

/**
 * Checks headers a user stores in a server's config: credentials only as `$SECRET` references to `declared`
 * secrets (optionally after a scheme word, as in `Bearer $STRIPE_API_KEY`); no literal that looks like a credential;
 * no header the MCP client manages itself.
 */
export function headerIssues(headers: Record<string, string>, declared: readonly string[]): HeaderIssue[] {
  const issues: HeaderIssue[] = [];
  for (const [header, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(header)) {
      issues.push({ header, message: 'is not a valid header name' });
      continue;
    }
    if (MANAGED_HEADERS.has(header.toLowerCase())) {
      issues.push({ header, message: 'is set by the MCP client and cannot be configured' });
      continue;
    }
    const unknown = referencedSecrets(value).filter((name) => !declared.includes(name));
    if (unknown.length > 0) {
      const known = declared.length ? declared.map((name) => `$${name}`).join(', ') : 'none';
      issues.push({ header, message: `references undeclared secret $${unknown[0]} (declared: ${known})` });
      continue;
    }
    const credentialHeader = CREDENTIAL_HEADER.test(header);
    if (credentialHeader && !SCHEME_THEN_REFERENCE.test(value.trim())) {
      issues.push({
        header,
        message: 'is a credential header: its value must be a secret reference such as $API_KEY or Bearer $API_KEY',
      });
    } else if (!credentialHeader && looksLikeCredential(value.replace(REFERENCE, ''))) {
      issues.push({
        header,
        message: 'looks like a literal credential: store it as a secret and reference it as $NAME',
      });
    }
  }
  return issues;
}

/** Replaces every `$NAME` reference with its secret value; throws naming the first secret that is missing. */
export function resolveHeaders(
  headers: Record<string, string>,
  secrets: Readonly<Record<string, string>>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).map(([header, value]) => [
      header,
      value.replace(REFERENCE, (_match, name: string) => {
        if (!Object.prototype.hasOwnProperty.call(secrets, name))
          throw new Error(`header ${header} references secret $${name}, which is not stored`);
        return secrets[name];
      }),
    ]),
  );
}
