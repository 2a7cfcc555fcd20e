import { RE2JS } from 're2js';
import { LIMITS } from '../limits';

/** What a value of each RFC 6570 operator matches, as the MCP SDK's `UriTemplate.match` has it (JS `.` is `ANY`). */
const ANY = '[^\\n\\r\\x{2028}\\x{2029}]+';
const SEGMENT = '[^/,]+';
const SEGMENTS = `${SEGMENT}(?:,${SEGMENT})*`;

/** One `{…}` expression as RE2 syntax, read the way the SDK's UriTemplate reads it. */
function expressionPattern(expression: string): string {
  const operator = ['+', '#', '.', '/', '?', '&'].find((op) => expression.startsWith(op)) ?? '';
  const exploded = expression.includes('*');
  const names = expression
    .slice(operator.length)
    .split(',')
    .map((name) => name.replace('*', '').trim())
    .filter((name) => name.length > 0);
  if (operator === '?' || operator === '&')
    return names.map((name, i) => `${i === 0 ? `\\${operator}` : '&'}${RE2JS.quote(name)}=([^&]+)`).join('');
  if (operator === '+' || operator === '#') return `(${ANY})`;
  if (operator === '.') return `\\.(${SEGMENT})`;
  return `${operator === '/' ? '/' : ''}(${exploded ? SEGMENTS : SEGMENT})`;
}

/** The template as an anchored RE2 pattern, or undefined for an unclosed expression. */
function templatePattern(template: string): string | undefined {
  let pattern = '^';
  let at = 0;
  while (at < template.length) {
    const open = template.indexOf('{', at);
    const literal = template.slice(at, open === -1 ? template.length : open);
    if (literal) pattern += RE2JS.quote(literal);
    if (open === -1) break;
    const close = template.indexOf('}', open);
    if (close === -1) return undefined;
    pattern += expressionPattern(template.slice(open + 1, close));
    at = close + 1;
  }
  return `${pattern}$`;
}

/** The pattern compiled, or nothing should RE2 refuse it (a template is the upstream's text). */
function compiled(pattern: string): RE2JS[] {
  try {
    return [RE2JS.compile(pattern)];
  } catch {
    return [];
  }
}

/**
 * The resource templates an MCP server listed, matched like the SDK's `UriTemplate.match` (the operators it supports)
 * but on RE2 (`re2js`), whose matching time is linear in the URI: the SDK builds a backtracking RegExp
 * (`h://{a}{b}{c}x` takes seconds on a URI of a few thousand characters). A URI over `LIMITS.resourceUriChars` is
 * matched by none; templates are kept in the order listed while their characters together stay within
 * `LIMITS.resourceTemplateChars` (a match costs at most that much per character of the URI); one unclosed or refused
 * by RE2 is skipped.
 */
export class ResourceTemplates {
  private readonly patterns: RE2JS[] = [];

  constructor(templates: readonly string[]) {
    let chars = 0;
    for (const template of templates) {
      chars += template.length;
      if (chars > LIMITS.resourceTemplateChars) break;
      const pattern = templatePattern(template);
      if (pattern !== undefined) this.patterns.push(...compiled(pattern));
    }
  }

  matches(uri: string): boolean {
    if (uri.length > LIMITS.resourceUriChars) return false;
    return this.patterns.some((pattern) => pattern.test(uri));
  }
}
